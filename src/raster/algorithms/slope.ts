/**
 * `slope` (TiTiler Slope), numpy 2 dtype rules: gradients (× z_exaggeration) in the DEM's float
 * precision, then dx = x / |a|, dy = y / |e| (pixel sizes of the image transform) and
 * degrees(arctan(√(dx² + dy²))) in float64, stored as float32. As in TiTiler, the row gradient
 * is divided by the x pixel size. numpy.ma also masks non-finite dx/dy (and everything when a
 * pixel size is 0: its safe-divide domain).
 */
import type { ImageData } from '../image-data.ts';
import { maskedGradient } from './gradient.ts';
import { mustYield, yieldToLoop } from '../../util/cooperate.ts';
import { FLOAT64_TINY } from './numeric.ts';
import { croppedBounds, makeOutput, requireBands } from './output.ts';
import type { AlgorithmParams } from './params.ts';

const DEGREES = 180 / Math.PI;

export async function slope(params: AlgorithmParams, img: ImageData): Promise<ImageData> {
  requireBands('slope', img, 1);
  const buffer = params.buffer as number;
  const z = params.z_exaggeration as number;
  const f32 = img.bands[0] instanceof Float32Array;
  const [west, south, east, north] = img.bounds;
  const px = Math.abs((east - west) / img.width);
  const py = Math.abs((south - north) / img.height);
  const g = await maskedGradient(img.bands[0], img.masks[0], img.width, img.height, buffer, f32);

  const n = g.width * g.height;
  const out = new Float32Array(n);
  const valid = g.valid;
  const { gx, gy } = g;
  for (let i = 0; i < n; i++) {
    if ((i & 0xfff) === 0 && mustYield()) await yieldToLoop();
    let x = gx[i] * z;
    let y = gy[i] * z;
    if (f32) {
      x = Math.fround(x);
      y = Math.fround(y);
    }
    const dx = x / px;
    const dy = y / py;
    if (!Number.isFinite(dx) || !Number.isFinite(dy) || Math.abs(x) * FLOAT64_TINY >= px || Math.abs(y) * FLOAT64_TINY >= py) {
      valid[i] = 0;
    }
    out[i] = Math.atan(Math.sqrt(dx * dx + dy * dy)) * DEGREES;
  }
  return makeOutput(img, {
    width: g.width,
    height: g.height,
    dtype: 'float32',
    bands: [out],
    masks: [valid],
    bandDescriptions: ['slope'],
    bounds: buffer ? croppedBounds(img, buffer, g.width, g.height) : undefined,
  });
}
