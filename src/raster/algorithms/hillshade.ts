/**
 * `hillshade` (TiTiler HillShade) with numpy 2 dtype rules: for a float32 DEM the gradients,
 * x², y², their sum, the square root, arctan and arctan2 are float32 operations; everything
 * from `π/2 − arctan(…)` on is float64. Values below 0 become 0, the cast to uint8 truncates.
 * The mask is the gradient mask (see gradient.ts), cropped with the data.
 */
import type { ImageData } from '../image-data.ts';
import { maskedGradient } from './gradient.ts';
import { mustYield, yieldToLoop } from '../../util/cooperate.ts';
import { castUint8 } from '../numpy-cast.ts';
import { croppedBounds, makeOutput, requireBands } from './output.ts';
import type { AlgorithmParams } from './params.ts';

const HALF_PI = Math.PI / 2.0;

export async function hillshade(params: AlgorithmParams, img: ImageData): Promise<ImageData> {
  requireBands('hillshade', img, 1);
  const azimuth = params.azimuth as number;
  const altitude = params.angle_altitude as number;
  const buffer = params.buffer as number;
  const z = params.z_exaggeration as number;
  const f32 = img.bands[0] instanceof Float32Array;
  const g = await maskedGradient(img.bands[0], img.masks[0], img.width, img.height, buffer, f32);

  const azRad = ((360.0 - azimuth) * Math.PI) / 180.0;
  const altRad = (altitude * Math.PI) / 180.0;
  const sinAlt = Math.sin(altRad);
  const cosAlt = Math.cos(altRad);
  const n = g.width * g.height;
  const out = new Uint8Array(n);
  const { gx, gy } = g;
  for (let i = 0; i < n; i++) {
    if ((i & 0xfff) === 0 && mustYield()) await yieldToLoop();
    let x = gx[i] * z;
    let y = gy[i] * z;
    let at: number;
    let aspect: number;
    if (f32) {
      x = Math.fround(x);
      y = Math.fround(y);
      const s = Math.fround(Math.fround(x * x) + Math.fround(y * y));
      at = Math.fround(Math.atan(Math.fround(Math.sqrt(s))));
      aspect = Math.fround(Math.atan2(-x, y));
    } else {
      at = Math.atan(Math.sqrt(x * x + y * y));
      aspect = Math.atan2(-x, y);
    }
    const slope = HALF_PI - at;
    const shaded = sinAlt * Math.sin(slope) + cosAlt * Math.cos(slope) * Math.cos(azRad - aspect);
    const v = (255 * (shaded + 1)) / 2;
    out[i] = castUint8(v < 0 ? 0 : v);
  }
  return makeOutput(img, {
    width: g.width,
    height: g.height,
    dtype: 'uint8',
    bands: [out],
    masks: [g.valid],
    bandDescriptions: ['hillshade'],
    bounds: buffer ? croppedBounds(img, buffer, g.width, g.height) : undefined,
  });
}
