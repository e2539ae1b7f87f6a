/**
 * The TileJSON 3.0.0 document of a reader: the body of GET /{tms}/tilejson.json, also built per
 * step by GET /{backend}/timeseries/{tms}/tilejson.json with that step's query pairs.
 */
import type { TileMatrixSet } from '../../geo/tms.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import { encodePairs } from '../query-string.ts';
import type { ParamDefs, ParsedParams } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';

/** Query keys TiTiler drops from the tile URL of a TileJSON / map page. */
export const TILEJSON_DROP = ['tilematrixsetid', 'tile_format', 'minzoom', 'maxzoom'];

/** `tilesize` a TileJSON's tile URL asks for when the request names none. */
const TILEJSON_TILESIZE = 512;

export interface TileJsonChoices {
  minzoom?: number;
  maxzoom?: number;
  tile_format?: string;
}

/** `pairs`: the query of the tile URL (without TILEJSON_DROP's keys), in order. */
export function tileJsonDocument<D extends ParamDefs, R extends ImageReader>(
  backend: ImageBackend<D, R>,
  p: ParsedParams<D> & TileJsonChoices,
  reader: R,
  tms: TileMatrixSet,
  pairs: Array<[string, string]>,
  baseUrl: string,
): Record<string, unknown> {
  const zooms = reader.zoomRange(tms);
  const minzoom = p.minzoom ?? zooms.minzoom;
  const maxzoom = p.maxzoom ?? zooms.maxzoom;
  const b = reader.boundsIn(tms.geographicCrs);
  const query = pairs.some(([k]) => k === 'tilesize') ? pairs : [...pairs, ['tilesize', String(TILEJSON_TILESIZE)] as [string, string]];
  const ext = p.tile_format ? `.${p.tile_format}` : '';
  return {
    tilejson: '3.0.0',
    version: '1.0.0',
    scheme: 'xyz',
    tiles: [`${baseUrl}${backend.prefix}/tiles/${tms.id}/{z}/{x}/{y}${ext}${encodePairs(query)}`],
    minzoom,
    maxzoom,
    bounds: b,
    center: [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2, minzoom],
    ...backend.tileJsonExtras?.(p, reader),
  };
}
