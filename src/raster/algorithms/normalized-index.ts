/**
 * `normalizedIndex` (TiTiler NormalizedIndex): (b2 − b1) / (b2 + b1) in float32 on the first two
 * bands. numpy.ma masks a pixel when either input is masked and where the quotient is not
 * finite (0/0, x/0): TiTiler's own test expects the 0/0 pixels masked.
 */
import type { ImageData } from '../image-data.ts';
import { makeOutput, requireBands } from './output.ts';
import type { AlgorithmParams } from './params.ts';

export function normalizedIndex(_params: AlgorithmParams, img: ImageData): ImageData {
  requireBands('normalizedIndex', img, 2);
  const [b1, b2] = img.bands;
  const [m1, m2] = img.masks;
  const n = img.width * img.height;
  const out = new Float32Array(n);
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.fround(b1[i]);
    const c = Math.fround(b2[i]);
    const v = Math.fround(Math.fround(c - a) / Math.fround(c + a));
    out[i] = v;
    mask[i] = m1[i] !== 0 && m2[i] !== 0 && Number.isFinite(v) ? 255 : 0;
  }
  const [d1, d2] = img.bandDescriptions;
  return makeOutput(img, {
    width: img.width,
    height: img.height,
    dtype: 'float32',
    bands: [out],
    masks: [mask],
    bandDescriptions: [`(${d2} - ${d1}) / (${d2} + ${d1})`],
  });
}
