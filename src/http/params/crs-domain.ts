/**
 * Domain checks of a parsed CRS, for definitions that proj4js accepts but PROJ refuses because they
 * describe no projection: `+proj=merc +a=0` (proj4js silently falls back to WGS84's axis),
 * `+proj=ortho +lat_0=91`, `+proj=utm +zone=99`, `+k=0`, non-finite parameters. Returns the
 * reason, or null for a usable CRS.
 */
import type { Crs } from '../../geo/crs.ts';
import { makeProj } from '../../geo/proj4-lib.ts';

const POSITIVE = new Set(['a', 'b', 'R', 'rf', 'k', 'k_0', 'to_meter']);
const LATITUDE = new Set(['lat_0', 'lat_1', 'lat_2', 'lat_ts', 'lat_b']);
const NUMERIC = new Set([...POSITIVE, ...LATITUDE, 'lon_0', 'lonc', 'x_0', 'y_0', 'alpha', 'gamma', 'h', 'zone', 'f', 'es', 'e']);

/** `+key=value` checks on a PROJ string (values in degrees; DMS forms are left to proj4js). */
function projStringProblem(text: string): string | null {
  for (const m of text.matchAll(/\+?([A-Za-z_0-9]+)=(\S*)/g)) {
    const key = m[1]!;
    if (!NUMERIC.has(key)) continue;
    const raw = m[2]!.trim();
    const n = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(raw) ? Number(raw) : /^[+-]?(nan|inf(inity)?)$/i.test(raw) ? NaN : undefined;
    if (n === undefined) continue;
    if (!Number.isFinite(n)) return `+${key} must be a finite number`;
    if (POSITIVE.has(key) && !(n > 0)) return `+${key} must be greater than 0`;
    if (LATITUDE.has(key) && Math.abs(n) > 90) return `+${key} must be within [-90, 90]`;
    if (key === 'zone' && !(Number.isInteger(n) && n >= 1 && n <= 60)) return '+zone must be an integer within [1, 60]';
  }
  return null;
}

interface ProjFields {
  a?: number;
  b?: number;
  k0?: number;
  lat0?: number;
  lat1?: number;
  lat2?: number;
  lat_ts?: number;
  long0?: number;
  x0?: number;
  y0?: number;
}

const HALF_PI = Math.PI / 2 + 1e-10;

/** The parameters proj4js derived (radians), whatever the definition's syntax (WKT, PROJJSON, PROJ). */
function projObjectProblem(p: ProjFields): string | null {
  for (const k of ['a', 'b', 'k0'] as const) {
    const v = p[k];
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) return `${k === 'k0' ? 'scale factor' : `semi-axis ${k}`} must be a finite number greater than 0`;
  }
  for (const k of ['lat0', 'lat1', 'lat2', 'lat_ts'] as const) {
    const v = p[k];
    if (v !== undefined && !(Number.isFinite(v) && Math.abs(v) <= HALF_PI)) return 'latitudes must be within [-90, 90]';
  }
  for (const k of ['long0', 'x0', 'y0'] as const) {
    const v = p[k];
    if (v !== undefined && !Number.isFinite(v)) return 'origin and false easting/northing must be finite';
  }
  return null;
}

export function crsDomainProblem(crs: Crs, raw: string): string | null {
  if (crs.epsg !== null && !/\+proj=|\+init=/i.test(raw)) return null;
  const fromText = /\+proj=|\+init=/i.test(crs.proj4) ? projStringProblem(crs.proj4) : null;
  if (fromText) return fromText;
  try {
    return projObjectProblem(makeProj(crs.proj4) as unknown as ProjFields);
  } catch {
    return 'unsupported projection';
  }
}
