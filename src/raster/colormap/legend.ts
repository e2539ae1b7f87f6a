/**
 * Legend image of a colormap for `/colorMaps/{id}?f=<image format>` (TiTiler ColorMapFactory):
 * a ramp of the colormap's values, 256 × 20 (horizontal, default) or 20 × 256 (vertical);
 * discrete/interval maps get one column (row) per entry (keys / interval minimums), stretched to
 * 256 when they have fewer entries. `width`/`height` resize with nearest sampling.
 * Returns an RGB ImageData whose `alpha` is the colormap alpha: encode it with renderImage.
 */
import type { Crs } from '../../geo/crs.ts';
import type { ImageData } from '../image-data.ts';
import { applyColormap } from './apply.ts';
import type { ColorMap } from './types.ts';

export interface LegendOptions {
  orientation?: 'horizontal' | 'vertical';
  width?: number;
  height?: number;
}

/** Legends are not georeferenced: pixel coordinates, no CRS code. */
const PIXEL_CRS: Crs = { id: 'LOCAL:pixel', proj4: '', epsg: null, isGeographic: false, wkt: null };

function rampValues(cmap: ColorMap | Uint8Array): number[] {
  if (cmap instanceof Uint8Array || cmap.kind === 'lut') return Array.from({ length: 256 }, (_, i) => i);
  if (cmap.kind === 'discrete') return [...cmap.entries.keys()];
  return cmap.entries.map(([[lo]]) => lo);
}

export function legendImage(cmap: ColorMap | Uint8Array, opts: LegendOptions = {}): ImageData {
  const values = rampValues(cmap);
  const n = values.length;
  const vertical = opts.orientation === 'vertical';
  const isLut = cmap instanceof Uint8Array || cmap.kind === 'lut';
  // TiTiler quirk kept: a discrete/interval map with ≥ 256 entries ignores the requested length.
  const requested = (vertical ? opts.height : opts.width) || 256;
  const along = isLut || n < 256 ? requested : n;
  const across = (vertical ? opts.width : opts.height) || 20;
  const width = vertical ? across : along;
  const height = vertical ? along : across;

  const ramp = new Float64Array(along);
  for (let i = 0; i < along; i++) ramp[i] = values[Math.min(n - 1, Math.floor(((i + 0.5) * n) / along))];
  const grid = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) grid[y * width + x] = ramp[vertical ? y : x];
  }
  const mask = new Uint8Array(width * height).fill(255);
  const { rgba } = applyColormap(grid, mask, cmap);
  const size = width * height;
  return {
    width,
    height,
    dtype: 'uint8',
    bands: [rgba.subarray(0, size), rgba.subarray(size, 2 * size), rgba.subarray(2 * size, 3 * size)],
    masks: [mask, mask, mask],
    alpha: rgba.subarray(3 * size),
    bounds: [0, 0, width, height],
    crs: PIXEL_CRS,
    bandNames: ['b1', 'b2', 'b3'],
    bandDescriptions: ['b1', 'b2', 'b3'],
    nodata: null,
    scales: [1, 1, 1],
    offsets: [0, 0, 0],
  };
}
