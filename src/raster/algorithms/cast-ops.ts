/**
 * `cast`, `ceil`, `floor` (TiTiler CastToInt/Ceil/Floor): every band to uint8 the way numpy's
 * `astype("uint8")` does it on x86-64 (integers wrap, floats truncate through int32: 1.6 → 1,
 * 300.7 → 44, −1.5 → 255, NaN → 0). Integer input is unchanged by ceil/floor (numpy 2).
 * Band names, descriptions and per-band masks are kept.
 */
import { isFloat } from '../../dtype.ts';
import type { ImageData } from '../image-data.ts';
import { castUint8 } from '../numpy-cast.ts';
import { makeOutput, requireBands } from './output.ts';
import type { AlgorithmParams } from './params.ts';

type Rounding = 'trunc' | 'ceil' | 'floor';

function toUint8(id: string, rounding: Rounding, img: ImageData): ImageData {
  requireBands(id, img, 1);
  const n = img.width * img.height;
  const float = isFloat(img.dtype);
  const bands = img.bands.map((band) => {
    const out = new Uint8Array(n);
    if (!float) for (let i = 0; i < n; i++) out[i] = band[i] & 255;
    else if (rounding === 'ceil') for (let i = 0; i < n; i++) out[i] = castUint8(Math.ceil(band[i]));
    else if (rounding === 'floor') for (let i = 0; i < n; i++) out[i] = castUint8(Math.floor(band[i]));
    else for (let i = 0; i < n; i++) out[i] = castUint8(band[i]);
    return out;
  });
  return makeOutput(img, {
    width: img.width,
    height: img.height,
    dtype: 'uint8',
    bands,
    masks: [...img.masks], // the mask arrays themselves are shared (never written in place downstream)
    bandNames: [...img.bandNames],
    bandDescriptions: [...img.bandDescriptions],
  });
}

export const cast = (_p: AlgorithmParams, img: ImageData): ImageData => toUint8('cast', 'trunc', img);
export const ceil = (_p: AlgorithmParams, img: ImageData): ImageData => toUint8('ceil', 'ceil', img);
export const floor = (_p: AlgorithmParams, img: ImageData): ImageData => toUint8('floor', 'floor', img);
