/**
 * `terrainrgb` (TiTiler TerrainRGB, Mapbox encoding): d = around((v − baseval) / interval) in
 * float64 (ties to even); if max − min of the valid d exceeds 256³ the request fails; with
 * `nodata_height`, masked pixels get (nodata_height − baseval) / interval (not rounded) and
 * become valid. i = int32(d): R = (i >> 16) & 255, G = (i >> 8) & 255, B = i & 255.
 * numpy.ma masks NaN/±Inf heights, and every pixel when interval is 0 (safe-divide domain).
 */
import { Errors } from '../../errors.ts';
import type { ImageData } from '../image-data.ts';
import { castInt32 } from '../numpy-cast.ts';
import { FLOAT64_TINY, roundHalfEven } from './numeric.ts';
import { makeOutput, requireBands } from './output.ts';
import type { AlgorithmParams } from './params.ts';
import { pyFloatRepr } from '../../util/python.ts';

const MAX_RANGE = 256 ** 3;

export function terrainrgb(params: AlgorithmParams, img: ImageData): ImageData {
  requireBands('terrainrgb', img, 1);
  const interval = params.interval as number;
  const baseval = params.baseval as number;
  const nodataHeight = params.nodata_height;
  const band = img.bands[0];
  const inMask = img.masks[0];
  const n = img.width * img.height;
  const data = new Float64Array(n);
  const mask = new Uint8Array(n);
  let lo = Infinity;
  let hi = -Infinity;
  const absInterval = Math.abs(interval);
  for (let i = 0; i < n; i++) {
    let d = band[i] - baseval;
    let valid = inMask[i] !== 0;
    if (Math.abs(d) * FLOAT64_TINY >= absInterval) valid = false;
    else d /= interval;
    d = roundHalfEven(d);
    if (!Number.isFinite(d)) valid = false;
    data[i] = d;
    if (valid) {
      mask[i] = 255;
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
  }
  if (hi - lo > MAX_RANGE) throw Errors.badRequest(`Data of ${pyFloatRepr(hi - lo)} larger than 256 ** 3`);
  if (nodataHeight !== null) {
    if (interval === 0) throw Errors.badRequest('terrainrgb: interval must not be 0 when nodata_height is set');
    const fill = (nodataHeight - baseval) / interval;
    for (let i = 0; i < n; i++) {
      if (inMask[i] === 0) {
        data[i] = fill;
        mask[i] = 255;
      }
    }
  }
  const r = new Uint8Array(n);
  const g = new Uint8Array(n);
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = castInt32(data[i]);
    r[i] = (v >> 16) & 255;
    g[i] = (v >> 8) & 255;
    b[i] = v & 255;
  }
  return makeOutput(img, {
    width: img.width,
    height: img.height,
    dtype: 'uint8',
    bands: [r, g, b],
    masks: [mask, mask, mask],
    bandDescriptions: ['terrain_r', 'terrain_g', 'terrain_b'],
  });
}
