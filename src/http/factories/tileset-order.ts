/**
 * The order the HTML tile set list (`/tiles?f=html`) shows the tile matrix sets in: first those
 * in the dataset's own CRS (tiles without reprojection), then the two every web map knows
 * (WebMercatorQuad, WorldCRS84Quad), then the others whose extent covers the dataset, then the
 * rest. The JSON list keeps TiTiler's order (TMS ids sorted).
 */
import type { Bounds } from '../../geo/bounds.ts';
import { sameCrs } from '../../geo/crs.ts';
import { getTileMatrixSet, type TileMatrixSet } from '../../geo/tms.ts';
import type { ImageReader } from '../../readers/image-reader.ts';

const WEB_MAPS = ['WebMercatorQuad', 'WorldCRS84Quad'];

export interface RankedTileSet {
  id: string;
  /** 0 native CRS, 1 web maps, 2 covers the dataset, 3 the rest. */
  rank: 0 | 1 | 2 | 3;
  note: string;
}

/** The TMS's extent in its CRS (x/y order), from its first matrix. */
function extent(tms: TileMatrixSet): Bounds {
  const m = tms.matrix(tms.minzoom);
  const [a, b] = m.pointOfOrigin;
  const [ox, oy] = tms.axisInverted ? [b, a] : [a, b];
  const w = m.cellSize * m.tileWidth * m.matrixWidth;
  const h = m.cellSize * m.tileHeight * m.matrixHeight;
  return m.cornerOfOrigin === 'bottomLeft' ? [ox, oy, ox + w, oy + h] : [ox, oy - h, ox + w, oy];
}

/** True when the dataset's bounds, in the TMS CRS, are finite and inside the TMS extent. */
function covers(tms: TileMatrixSet, reader: ImageReader): boolean {
  let b: Bounds;
  try {
    b = reader.boundsIn(tms.crs);
  } catch {
    return false; // no transform to that CRS
  }
  if (!b.every(Number.isFinite)) return false;
  const e = extent(tms);
  return b[0] >= e[0] && b[1] >= e[1] && b[2] <= e[2] && b[3] <= e[3];
}

export function rankTileSets(ids: readonly string[], reader: ImageReader): RankedTileSet[] {
  const ranked = ids.map((id): RankedTileSet => {
    const tms = getTileMatrixSet(id);
    if (sameCrs(tms.crs, reader.crs)) return { id, rank: 0, note: "in the dataset's own CRS: no reprojection" };
    if (WEB_MAPS.includes(id)) return { id, rank: 1, note: 'for web maps' };
    if (covers(tms, reader)) return { id, rank: 2, note: 'covers the dataset' };
    return { id, rank: 3, note: 'does not cover the whole dataset' };
  });
  // stable: within a rank, the JSON order
  return ranked
    .map((r, i) => ({ r, i }))
    .sort((x, y) => x.r.rank - y.r.rank || (x.r.rank === 1 ? WEB_MAPS.indexOf(x.r.id) - WEB_MAPS.indexOf(y.r.id) : x.i - y.i))
    .map(({ r }) => r);
}
