/** Band math on an ImageData: outputs named b1..bN, described by the expression text (rio-tiler). */
import type { CompiledExpression } from './expression/index.ts';
import { describeExpression } from './expression/index.ts';
import type { TypedArray } from '../dtype.ts';
import type { ImageData } from './image-data.ts';
import { chargeRequest } from '../util/request-budget.ts';

/**
 * `img` holds the bands listed in `indexes` (1-based dataset band numbers, in that order),
 * which must include every band the expression references.
 */
export function applyExpression(img: ImageData, indexes: number[], expr: CompiledExpression): ImageData {
  const inputs: Array<TypedArray | undefined> = [];
  const masks: Array<Uint8Array | undefined> = [];
  const descriptions: string[] = [];
  indexes.forEach((bandNumber, k) => {
    inputs[bandNumber] = img.bands[k];
    masks[bandNumber] = img.masks[k];
    descriptions[bandNumber - 1] = img.bandDescriptions[k]; // describeExpression reads band K at K-1
  });
  const n = img.width * img.height;
  chargeRequest(n * 9 * Math.max(1, expr.blocks.length), `An expression over ${img.width}×${img.height} pixels`);
  const res = expr.evaluate(inputs, masks, n);
  return {
    ...img,
    dtype: res.dtype,
    bands: res.bands,
    masks: res.bands.map(() => res.mask),
    bandNames: res.bands.map((_, i) => `b${i + 1}`),
    bandDescriptions: expr.blocks.map((block) => describeExpression(block, descriptions)),
    scales: res.bands.map(() => 1),
    offsets: res.bands.map(() => 0),
    datasetStatistics: undefined,
  };
}
