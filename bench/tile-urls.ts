/**
 * The tile benchmark's datasets and URL list (bench/tiles.ts, bench/workers.ts): ~300
 * WebMercatorQuad tiles z8–12 over three fixtures made by bench/make-bench-data.py — uint16 DEM
 * in UTM with rescale+colormap, RGB uint8 in Web Mercator, float32 with NaN in EPSG:4326 — PNG.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getTileMatrixSet } from '../src/geo/tms.ts';
import { crsFromEpsg, WGS84 } from '../src/geo/crs.ts';
import { transformBounds } from '../src/geo/transform.ts';
import { sampleTiles } from './load.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const out = path.join(here, 'out');

export interface Dataset {
  name: string;
  path: string;
  epsg: number;
  bounds: [number, number, number, number];
  query: string;
  rescale?: [number, number];
  colormap?: string;
}

export const datasets: Dataset[] = [
  {
    name: 'dem',
    path: path.join(out, 'dem_uint16_utm.tif'),
    epsg: 32632,
    bounds: [380000, 5130000, 500000, 5250000],
    query: 'rescale=0,4000&colormap_name=terrain',
    rescale: [0, 4000],
    colormap: 'terrain',
  },
  { name: 'rgb', path: path.join(out, 'rgb_uint8_3857.tif'), epsg: 3857, bounds: [1000000, 5980000, 1120000, 6100000], query: '' },
  {
    name: 'f32',
    path: path.join(out, 'float32_nan_4326.tif'),
    epsg: 4326,
    bounds: [5, 47, 8, 50],
    query: 'rescale=-10,30&colormap_name=viridis',
    rescale: [-10, 30],
    colormap: 'viridis',
  },
];

export interface Tile {
  dataset: string;
  x: number;
  y: number;
  z: number;
}

/** Deterministic sample of tiles intersecting each dataset, z8–12 (at most 24 per zoom). */
export function tileList(): Tile[] {
  const tms = getTileMatrixSet('WebMercatorQuad');
  return datasets.flatMap((ds) =>
    sampleTiles(tms, transformBounds(crsFromEpsg(ds.epsg), WGS84, ds.bounds, 21), 8, 12, 24).map(({ z, x, y }) => ({ dataset: ds.name, x, y, z })),
  );
}

/** Path and query of one tile (no origin). */
export function tileUrl(t: Tile): string {
  const ds = datasets.find((d) => d.name === t.dataset)!;
  return `/cog/tiles/WebMercatorQuad/${t.z}/${t.x}/${t.y}.png?url=${encodeURIComponent(ds.path)}${ds.query ? `&${ds.query}` : ''}`;
}
