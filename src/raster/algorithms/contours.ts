/**
 * `contours` (TiTiler Contours): rio-tiler `linear_rescale(data, (minz, maxz), (1, 255))` cast to
 * uint8, looked up in the `terrain` colormap, then black where `data % increment < thickness`
 * (numpy float remainder; increment 0 gives NaN, so no line). Values come from the raw band
 * (masked pixels included); the mask of all three bands is the input mask.
 */
import { Errors } from '../../errors.ts';
import type { ImageData } from '../image-data.ts';
import { castUint8 } from '../numpy-cast.ts';
import { floorMod } from './numeric.ts';
import { makeOutput } from './output.ts';
import type { AlgorithmParams } from './params.ts';
import { terrainLut } from './terrain-colormap.ts';

export function contours(params: AlgorithmParams, img: ImageData): ImageData {
  if (img.bands.length !== 1) {
    throw Errors.badRequest(`Cannot apply \`contours\` algorithm on image with ${img.bands.length} bands (it needs 1 band).`);
  }
  const increment = params.increment as number;
  const thickness = params.thickness as number;
  const minz = params.minz as number;
  const maxz = params.maxz as number;
  const lut = terrainLut();
  const span = maxz - minz;
  const band = img.bands[0];
  const n = img.width * img.height;
  const r = new Uint8Array(n);
  const g = new Uint8Array(n);
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = band[i];
    if (floorMod(v, increment) < thickness) continue; // contour line: stays 0,0,0
    const clipped = Math.min(Math.max(v, minz), maxz);
    const k = castUint8(((clipped - minz) / span) * 254 + 1) * 4;
    r[i] = lut[k];
    g[i] = lut[k + 1];
    b[i] = lut[k + 2];
  }
  const mask = img.masks[0].slice();
  return makeOutput(img, {
    width: img.width,
    height: img.height,
    dtype: 'uint8',
    bands: [r, g, b],
    masks: [mask, mask, mask],
    bandDescriptions: ['contours_r', 'contours_g', 'contours_b'],
  });
}
