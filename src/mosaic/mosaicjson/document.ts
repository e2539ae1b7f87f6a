/**
 * The MosaicJSON document (cogeo-mosaic's model, spec versions 0.0.1–0.0.3): a quadkey index
 * (`tiles`: quadkey → asset paths) at `quadkey_zoom` (default `minzoom`) over WebMercatorQuad,
 * with bounds in EPSG:4326, zoom range and optional 0.0.3 fields. `validateMosaicJson` checks a
 * parsed JSON value the way the pydantic model does and reports every problem (pydantic-shaped:
 * type, loc, msg, input); the caller adds the `body` / document prefix to `loc`.
 *
 * Only WebMercatorQuad indexes are read: a document whose `tilematrixset` is another TMS is
 * reported (UnsupportedFeature) rather than indexed wrongly.
 */
export interface MosaicJson {
  mosaicjson: string;
  name?: string;
  description?: string;
  version: string;
  attribution?: string;
  minzoom: number;
  maxzoom: number;
  quadkey_zoom?: number;
  bounds: [number, number, number, number];
  center: [number, number, number];
  tiles: Record<string, string[]>;
  tilematrixset?: Record<string, unknown>;
  asset_type?: string;
  asset_prefix?: string;
  data_type?: string;
  colormap?: Record<string, [number, number, number, number]>;
  layers?: Record<string, unknown>;
}

/** One validation problem (pydantic's error shape, `loc` relative to the document). */
export interface MosaicJsonIssue {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Checks and normalises a parsed document: the document (defaults filled, center computed) or its problems. */
export function validateMosaicJson(value: unknown): { doc: MosaicJson } | { issues: MosaicJsonIssue[] } {
  const issues: MosaicJsonIssue[] = [];
  if (!isObject(value)) {
    return { issues: [{ type: 'model_attributes_type', loc: [], msg: 'Input should be a valid dictionary or object to extract fields from', input: value }] };
  }
  const v = value;
  const str = (key: string, required: boolean): string | undefined => {
    const x = v[key];
    if (x === undefined || x === null) {
      if (required) issues.push({ type: 'missing', loc: [key], msg: 'Field required', input: v });
      return undefined;
    }
    if (typeof x !== 'string') {
      issues.push({ type: 'string_type', loc: [key], msg: 'Input should be a valid string', input: x });
      return undefined;
    }
    return x;
  };
  const zoom = (key: string, dflt: number | undefined): number | undefined => {
    const x = v[key];
    if (x === undefined || x === null) return dflt;
    if (typeof x !== 'number' || !Number.isInteger(x)) {
      issues.push({ type: 'int_type', loc: [key], msg: 'Input should be a valid integer', input: x });
      return dflt;
    }
    if (x < 0) issues.push({ type: 'greater_than_equal', loc: [key], msg: 'Input should be greater than or equal to 0', input: x, ctx: { ge: 0 } });
    else if (x > 30) issues.push({ type: 'less_than_equal', loc: [key], msg: 'Input should be less than or equal to 30', input: x, ctx: { le: 30 } });
    return x;
  };

  const mosaicjson = str('mosaicjson', true);
  const name = str('name', false);
  const description = str('description', false);
  const version = str('version', false) ?? '1.0.0';
  const attribution = str('attribution', false);
  const minzoom = zoom('minzoom', 0) ?? 0;
  const maxzoom = zoom('maxzoom', 30) ?? 30;
  const quadkeyZoom = zoom('quadkey_zoom', undefined);
  const assetType = str('asset_type', false);
  const assetPrefix = str('asset_prefix', false);
  const dataType = str('data_type', false);

  let bounds: [number, number, number, number] = [-180, -90, 180, 90];
  if (v.bounds !== undefined && v.bounds !== null) {
    const b = v.bounds;
    if (!Array.isArray(b) || b.length !== 4 || !b.every(isFiniteNumber)) {
      issues.push({ type: 'tuple_type', loc: ['bounds'], msg: 'Input should be a valid tuple of 4 numbers', input: b });
    } else bounds = [b[0], b[1], b[2], b[3]];
  }
  let center: [number, number, number] | undefined;
  if (v.center !== undefined && v.center !== null) {
    const c = v.center;
    if (!Array.isArray(c) || c.length !== 3 || !isFiniteNumber(c[0]) || !isFiniteNumber(c[1]) || !Number.isInteger(c[2])) {
      issues.push({ type: 'tuple_type', loc: ['center'], msg: 'Input should be a valid tuple of [lon, lat, zoom]', input: c });
    } else center = [c[0], c[1], c[2] as number];
  }

  const tiles: Record<string, string[]> = {};
  if (v.tiles === undefined || v.tiles === null) issues.push({ type: 'missing', loc: ['tiles'], msg: 'Field required', input: v });
  else if (!isObject(v.tiles)) issues.push({ type: 'dict_type', loc: ['tiles'], msg: 'Input should be a valid dictionary', input: v.tiles });
  else {
    for (const [qk, list] of Object.entries(v.tiles)) {
      if (!/^[0-3]*$/.test(qk))
        issues.push({ type: 'value_error', loc: ['tiles', qk, '[key]'], msg: 'Value error, quadkeys are made of the digits 0-3', input: qk });
      if (!Array.isArray(list)) {
        issues.push({ type: 'list_type', loc: ['tiles', qk], msg: 'Input should be a valid list', input: list });
        continue;
      }
      list.forEach((a, i) => {
        if (typeof a !== 'string') issues.push({ type: 'string_type', loc: ['tiles', qk, i], msg: 'Input should be a valid string', input: a });
      });
      tiles[qk] = list.filter((a): a is string => typeof a === 'string');
    }
  }

  let tilematrixset: Record<string, unknown> | undefined;
  if (v.tilematrixset !== undefined && v.tilematrixset !== null) {
    if (!isObject(v.tilematrixset))
      issues.push({ type: 'model_type', loc: ['tilematrixset'], msg: 'Input should be a valid TileMatrixSet', input: v.tilematrixset });
    else tilematrixset = v.tilematrixset;
  }
  let colormap: MosaicJson['colormap'];
  if (v.colormap !== undefined && v.colormap !== null) {
    if (!isObject(v.colormap)) issues.push({ type: 'dict_type', loc: ['colormap'], msg: 'Input should be a valid dictionary', input: v.colormap });
    else {
      colormap = {};
      for (const [k, c] of Object.entries(v.colormap)) {
        if (!/^-?\d+$/.test(k)) issues.push({ type: 'int_parsing', loc: ['colormap', `${k}`, '[key]'], msg: 'Input should be a valid integer', input: k });
        if (!Array.isArray(c) || c.length !== 4 || !c.every((n) => Number.isInteger(n))) {
          issues.push({ type: 'tuple_type', loc: ['colormap', k], msg: 'Input should be a valid tuple of 4 integers', input: c });
        } else colormap[k] = [c[0], c[1], c[2], c[3]] as [number, number, number, number];
      }
    }
  }
  let layers: Record<string, unknown> | undefined;
  if (v.layers !== undefined && v.layers !== null) {
    if (!isObject(v.layers)) issues.push({ type: 'dict_type', loc: ['layers'], msg: 'Input should be a valid dictionary', input: v.layers });
    else layers = v.layers;
  }

  if (issues.length > 0 || mosaicjson === undefined) return { issues };
  const doc: MosaicJson = {
    mosaicjson,
    ...(name !== undefined ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
    version,
    ...(attribution !== undefined ? { attribution } : {}),
    minzoom,
    maxzoom,
    ...(quadkeyZoom !== undefined ? { quadkey_zoom: quadkeyZoom } : {}),
    bounds,
    center: center ?? [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, minzoom],
    tiles,
    ...(tilematrixset !== undefined ? { tilematrixset } : {}),
    ...(assetType !== undefined ? { asset_type: assetType } : {}),
    ...(assetPrefix !== undefined ? { asset_prefix: assetPrefix } : {}),
    ...(dataType !== undefined ? { data_type: dataType } : {}),
    ...(colormap !== undefined ? { colormap } : {}),
    ...(layers !== undefined ? { layers } : {}),
  };
  return { doc };
}

/** The zoom of the quadkey index (cogeo-mosaic: `quadkey_zoom or minzoom`). */
export function quadkeyZoomOf(doc: MosaicJson): number {
  return doc.quadkey_zoom || doc.minzoom;
}
