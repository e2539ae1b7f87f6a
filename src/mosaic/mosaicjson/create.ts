/**
 * Builds a MosaicJSON 0.0.3 document from dataset footprints (cogeo-mosaic's
 * `MosaicJSON.from_urls` rules, our own code):
 *
 * - minzoom / maxzoom default to the *largest* minzoom / maxzoom of the datasets in
 *   WebMercatorQuad (each dataset's §7.5 zoom range), and are reported when they differ;
 * - the quadkey zoom defaults to minzoom;
 * - every index tile at the quadkey zoom that a footprint overlaps lists the overlapping
 *   datasets in input order (so `first` prefers earlier inputs);
 * - bounds = the union of the footprints (EPSG:4326), center = its middle at minzoom.
 *
 * Deviation: a tile is listed only when the footprint overlaps it with positive area (cogeo-mosaic
 * also lists tiles a footprint only touches on an edge; such an asset has nothing to give there).
 */
import type { Bounds } from '../../geo/bounds.ts';
import { getTileMatrixSet } from '../../geo/tms.ts';
import type { MosaicJson } from './document.ts';
import { quadkeyOf } from './quadkey.ts';

export interface DatasetFootprint {
  /** The asset path written to the index (as the user gave it). */
  path: string;
  /** Bounds in EPSG:4326. */
  bounds: Bounds;
  minzoom: number;
  maxzoom: number;
}

export interface CreateMosaicOptions {
  minzoom?: number;
  maxzoom?: number;
  quadkeyZoom?: number;
  name?: string;
  /** Called with warnings (mixed zoom ranges). */
  warn?: (message: string) => void;
}

/** Most index tiles a document may get (a low quadkey zoom over a huge area stays small; the reverse is refused). */
export const MAX_INDEX_TILES = 1_000_000;

export function createMosaicJson(datasets: readonly DatasetFootprint[], options: CreateMosaicOptions = {}): MosaicJson {
  if (datasets.length === 0) throw new Error('no datasets given');
  const minzooms = new Set(datasets.map((d) => d.minzoom));
  const maxzooms = new Set(datasets.map((d) => d.maxzoom));
  if (options.minzoom === undefined && minzooms.size > 1) options.warn?.(`datasets have different minzooms (${[...minzooms].join(', ')}): using the largest`);
  if (options.maxzoom === undefined && maxzooms.size > 1) options.warn?.(`datasets have different maxzooms (${[...maxzooms].join(', ')}): using the largest`);
  const minzoom = options.minzoom ?? Math.max(...minzooms);
  const maxzoom = options.maxzoom ?? Math.max(...maxzooms);
  const qz = options.quadkeyZoom ?? minzoom;
  for (const [k, z] of [
    ['minzoom', minzoom],
    ['maxzoom', maxzoom],
    ['quadkey zoom', qz],
  ] as const) {
    if (!Number.isInteger(z) || z < 0 || z > 30) throw new Error(`${k} must be an integer in 0..30, got ${z}`);
  }
  const tms = getTileMatrixSet('WebMercatorQuad');
  const tiles = new Map<string, string[]>();
  let count = 0;
  for (const d of datasets) {
    const [w, s, e, n] = d.bounds;
    const tl = tms.tileAt(w, n, qz, true);
    const br = tms.tileAt(e, s, qz, true);
    const m = mercatorBounds(d.bounds);
    for (let x = tl.x; x <= br.x; x++) {
      for (let y = tl.y; y <= br.y; y++) {
        // positive-area overlap only: skip a tile the footprint merely touches on an edge
        const t = tms.tileBounds(x, y, qz);
        if (!(m[0] < t[2] && m[2] > t[0] && m[1] < t[3] && m[3] > t[1]) && !(tl.x === br.x && tl.y === br.y)) continue;
        const qk = quadkeyOf(x, y, qz);
        let list = tiles.get(qk);
        if (list === undefined) {
          if (++count > MAX_INDEX_TILES) throw new Error(`the index would have more than ${MAX_INDEX_TILES} tiles: choose a lower --quadkey-zoom`);
          list = [];
          tiles.set(qk, list);
        }
        if (!list.includes(d.path)) list.push(d.path);
      }
    }
  }
  const bounds: [number, number, number, number] = [
    Math.min(...datasets.map((d) => d.bounds[0])),
    Math.min(...datasets.map((d) => d.bounds[1])),
    Math.max(...datasets.map((d) => d.bounds[2])),
    Math.max(...datasets.map((d) => d.bounds[3])),
  ];
  const sorted = [...tiles.keys()].sort();
  return {
    mosaicjson: '0.0.3',
    ...(options.name !== undefined ? { name: options.name } : {}),
    version: '1.0.0',
    minzoom,
    maxzoom,
    quadkey_zoom: qz,
    bounds,
    center: [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, minzoom],
    tiles: Object.fromEntries(sorted.map((k) => [k, tiles.get(k)!])),
  };
}

const R = 6378137;
const MAX_LAT = 85.0511287798066;

/** EPSG:4326 bounds in WebMercatorQuad metres (latitudes clamped to the square's edge). */
function mercatorBounds(b: Bounds): Bounds {
  const x = (lon: number): number => (R * lon * Math.PI) / 180;
  const y = (lat: number): number => {
    const c = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
    return R * Math.log(Math.tan(Math.PI / 4 + (c * Math.PI) / 360));
  };
  return [x(b[0]), y(b[1]), x(b[2]), y(b[3])];
}
