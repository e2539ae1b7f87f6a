/**
 * The one place that talks to proj4js: builds projection objects from definitions (PROJ strings,
 * WKT1/WKT2, PROJJSON) and runs single-point transforms between them, mapping every failure to
 * `null` so callers can mark the point as failed (GDAL reports such points as HUGE_VAL).
 */
import proj4 from 'proj4';
import { Errors } from '../errors.ts';

/** The subset of a proj4js Projection object we read. */
export interface ProjHandle {
  readonly projName?: string;
  readonly units?: string;
  readonly to_meter?: number;
  readonly a?: number;
  readonly b?: number;
  readonly rf?: number;
  readonly es?: number;
  readonly datum?: { datum_type?: number; datum_params?: number[] };
}

type Proj4Proj = InstanceType<typeof proj4.Proj>;

const projCache = new Map<string, Proj4Proj>();

/** Build (and cache) a proj4js projection; throws `InvalidCrs` when proj4js cannot interpret `def`. */
export function makeProj(def: string | object): Proj4Proj {
  const key = typeof def === 'string' ? def : JSON.stringify(def);
  const hit = projCache.get(key);
  if (hit) return hit;
  // proj4js accepts PROJJSON objects at run time; its typings only name the JSON shape loosely.
  const input = typeof def === 'string' && def.trimStart().startsWith('{') ? (JSON.parse(def) as object) : def;
  let p: Proj4Proj;
  try {
    p = new proj4.Proj(input as string);
  } catch (err) {
    throw Errors.invalidCrs('proj4js cannot interpret the CRS definition', { cause: err });
  }
  const h = p as unknown as ProjHandle & { forward?: unknown; inverse?: unknown };
  // proj4js silently ignores unknown +proj= names in some versions: insist on a real method.
  if (!h.projName || typeof h.forward !== 'function' || typeof h.inverse !== 'function') {
    throw Errors.invalidCrs('unsupported projection method');
  }
  if (projCache.size > 1024) projCache.clear();
  projCache.set(key, p);
  return p;
}

export const projHandle = (p: Proj4Proj): ProjHandle => p as unknown as ProjHandle;

const scratch = { x: 0, y: 0 };

/**
 * Transform one point; returns false (and leaves `out` untouched) when proj4js fails or yields
 * non-finite numbers.
 */
export function transformOne(src: Proj4Proj, dst: Proj4Proj, x: number, y: number, out: Float64Array, i: number, outY: Float64Array): boolean {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  scratch.x = x;
  scratch.y = y;
  let r: { x: number; y: number } | undefined;
  try {
    r = proj4.transform(src, dst, scratch) as { x: number; y: number } | undefined;
  } catch {
    return false;
  }
  if (!r || !Number.isFinite(r.x) || !Number.isFinite(r.y)) return false;
  out[i] = r.x;
  outY[i] = r.y;
  return true;
}
