/**
 * Data type coercion before encoding (TiTiler §5.3): formats that cannot hold the dtype get a
 * linear rescale to uint8 over the dataset statistics (when given) or the full dtype range.
 */
import { dtypeRange, type DType } from '../../dtype.ts';
import type { Canvas } from './canvas.ts';
import type { ImageFormat } from './formats.ts';
import { rescaleCanvas } from './rescale.ts';

/** Dtypes a format takes as they are; null = no check (the encoder decides). */
export function allowedDtypes(format: ImageFormat, autoSelected: boolean): readonly DType[] | null {
  switch (format) {
    case 'png':
      return autoSelected ? ['uint8'] : ['uint8', 'uint16'];
    case 'jpeg':
    case 'jpg':
    case 'webp':
      return ['uint8'];
    case 'jp2':
      return ['uint8', 'int16', 'uint16'];
    default:
      return null;
  }
}

export function coerceDtype(
  canvas: Canvas,
  format: ImageFormat,
  autoSelected: boolean,
  datasetStatistics: ReadonlyArray<readonly [number, number]> | undefined,
): Canvas {
  const allowed = allowedDtypes(format, autoSelected);
  if (!allowed || allowed.includes(canvas.dtype)) return canvas;
  const ranges = datasetStatistics && datasetStatistics.length > 0 ? datasetStatistics : [dtypeRange(canvas.dtype)];
  return rescaleCanvas(canvas, ranges);
}
