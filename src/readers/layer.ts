/**
 * Band selection of a single-dataset read: explicit `bidx` indexes, or an expression whose
 * referenced bands are read and then combined (expression wins when both are given).
 */
import { applyExpression } from '../raster/apply-expression.ts';
import { compileExpression, parseExpression, type CompiledExpression } from '../raster/expression/index.ts';
import type { ImageData } from '../raster/image-data.ts';

export interface Layer {
  indexes?: number[];
  expression?: CompiledExpression;
}

export function layerFromParams(bidx: number[] | undefined, expression: string | undefined): Layer {
  if (expression !== undefined && expression !== '') return { expression: compileExpression(parseExpression(expression)) };
  return { indexes: bidx && bidx.length > 0 ? bidx : undefined };
}

/** Runs `read` with the bands the layer needs and applies its expression. */
export async function readLayer(layer: Layer, read: (indexes: number[] | undefined) => Promise<ImageData>): Promise<ImageData> {
  if (!layer.expression) return read(layer.indexes);
  const indexes = layer.expression.bandIndexes;
  const img = await read(indexes);
  return applyExpression(img, indexes, layer.expression);
}
