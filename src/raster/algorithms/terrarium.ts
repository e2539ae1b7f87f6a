/**
 * `terrarium` (TiTiler Terrarium, Mapzen encoding) with numpy 2 rules (float64 arithmetic):
 * v' = clip(v + 32768, 0, 65535); R = v'/256, G = v' mod 256, B = (v'·256) mod 256, each cast to
 * uint8 by truncation. With `nodata_height`, masked pixels are encoded from that height and
 * become valid (numpy.ma assignment clears their mask). A NaN height is masked in R only: numpy.ma
 * masks the non-finite quotient v'/256, while `%` goes through the plain ufunc, which does not.
 */
import type { ImageData } from '../image-data.ts';
import { castUint8 } from '../numpy-cast.ts';
import { floorMod } from './numeric.ts';
import { makeOutput, requireBands } from './output.ts';
import type { AlgorithmParams } from './params.ts';

export function terrarium(params: AlgorithmParams, img: ImageData): ImageData {
  requireBands('terrarium', img, 1);
  const nodataHeight = params.nodata_height;
  const fill = nodataHeight === null ? NaN : Math.min(Math.max(nodataHeight + 32768.0, 0.0), 65535.0);
  const band = img.bands[0];
  const inMask = img.masks[0];
  const n = img.width * img.height;
  const r = new Uint8Array(n);
  const g = new Uint8Array(n);
  const b = new Uint8Array(n);
  const mask = new Uint8Array(n);
  const maskR = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let valid = inMask[i] !== 0;
    let d: number;
    if (!valid && nodataHeight !== null) {
      d = fill;
      valid = true;
    } else {
      d = Math.min(Math.max(band[i] + 32768.0, 0.0), 65535.0);
    }
    mask[i] = valid ? 255 : 0;
    maskR[i] = valid && !Number.isNaN(d) ? 255 : 0;
    r[i] = castUint8(d / 256);
    g[i] = castUint8(floorMod(d, 256));
    b[i] = castUint8(floorMod(d * 256, 256));
  }
  return makeOutput(img, {
    width: img.width,
    height: img.height,
    dtype: 'uint8',
    bands: [r, g, b],
    masks: [maskR, mask, mask],
    bandDescriptions: ['terranium_r', 'terranium_g', 'terranium_b'],
  });
}
