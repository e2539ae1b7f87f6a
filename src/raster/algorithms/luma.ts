/**
 * `grayscale` and `bitonal` (TiTiler ToGrayScale/ToBitonal), ITU-R 601-2 luma
 * L = b1·299/1000 + b2·587/1000 + b3·114/1000 computed in float64, as numpy 2 does it on masked
 * arrays (numpy 1.x overflowed uint8 products; we do not reproduce that). A pixel is masked when
 * any of the three bands is, or a term is not finite (numpy.ma's division mask).
 * grayscale casts L back to the input dtype (truncation); bitonal is 255 where the value (L, or
 * band 1 of a 1-band image) is > 127, else 0.
 */
import { Errors } from '../../errors.ts';
import { allocate, isFloat } from '../../dtype.ts';
import type { ImageData } from '../image-data.ts';
import { castUint8 } from '../numpy-cast.ts';
import { makeOutput } from './output.ts';
import type { AlgorithmParams } from './params.ts';

/** Writes L (float64) and the combined mask of bands 1–3. */
function luma(img: ImageData, out: Float64Array, mask: Uint8Array): void {
  const [r, g, b] = img.bands;
  const [mr, mg, mb] = img.masks;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) {
    const tr = (r[i] * 299) / 1000;
    const tg = (g[i] * 587) / 1000;
    const tb = (b[i] * 114) / 1000;
    out[i] = tr + tg + tb;
    const ok = mr[i] !== 0 && mg[i] !== 0 && mb[i] !== 0 && Number.isFinite(tr) && Number.isFinite(tg) && Number.isFinite(tb);
    mask[i] = ok ? 255 : 0;
  }
}

export function grayscale(_p: AlgorithmParams, img: ImageData): ImageData {
  if (img.bands.length < 3) {
    throw Errors.badRequest(`Cannot apply \`grayscale\` algorithm on image with ${img.bands.length} bands.`);
  }
  const n = img.width * img.height;
  const l = new Float64Array(n);
  const mask = new Uint8Array(n);
  luma(img, l, mask);
  const out = allocate(img.dtype, n);
  if (img.dtype === 'uint8') for (let i = 0; i < n; i++) out[i] = castUint8(l[i]);
  else if (isFloat(img.dtype)) out.set(l);
  else for (let i = 0; i < n; i++) out[i] = Math.trunc(l[i]);
  return makeOutput(img, {
    width: img.width,
    height: img.height,
    dtype: img.dtype,
    bands: [out],
    masks: [mask],
    bandDescriptions: ['grayscale'],
  });
}

export function bitonal(_p: AlgorithmParams, img: ImageData): ImageData {
  const nb = img.bands.length;
  if (nb !== 1 && nb !== 3) throw Errors.badRequest(`Cannot apply \`bitonal\` algorithm on image with ${nb} bands.`);
  const n = img.width * img.height;
  const out = new Uint8Array(n);
  let mask: Uint8Array;
  if (nb === 3) {
    const l = new Float64Array(n);
    mask = new Uint8Array(n);
    luma(img, l, mask);
    for (let i = 0; i < n; i++) out[i] = l[i] > 127 ? 255 : 0;
  } else {
    const band = img.bands[0];
    mask = img.masks[0].slice();
    for (let i = 0; i < n; i++) out[i] = band[i] > 127 ? 255 : 0;
  }
  return makeOutput(img, {
    width: img.width,
    height: img.height,
    dtype: 'uint8',
    bands: [out],
    masks: [mask],
    bandDescriptions: ['bitonal'],
  });
}
