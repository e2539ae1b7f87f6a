/**
 * proj4js's point transform without its per-point objects, for the CRS pairs where it is a plain
 * inverse projection → forward projection (no datum step).
 *
 * Why: `proj4.transform` clones the point, then makes a new object at each step (degrees →
 * radians, radians → degrees, metres) and deletes `z` from the result. A warped 256² tile
 * transforms thousands of points, so under tile load these objects were ~60 % of everything the
 * server allocated on the JS heap (~0.5 MB per tile, sampled heap profile), and their promotion
 * drove most full garbage collections. Here one reused point goes through the projections'
 * own `inverse`/`forward`, with proj4js's own steps in its order and its own constants, so every
 * result is the same double as `proj4.transform`'s (test/geo/proj4-direct.test.ts checks it bit
 * for bit). Pairs that need a datum shift, a longitude wrap or geocentric coordinates keep
 * `proj4.transform` (src/geo/proj4-lib.ts).
 */

/** The proj4js projection fields the direct path reads. */
interface RawDatum {
  readonly datum_type: number;
  readonly a: number;
  readonly es: number;
  readonly datum_params?: readonly number[];
}

interface RawPoint {
  x: number;
  y: number;
  z: number | undefined;
  m: number | undefined;
}

interface RawProj {
  readonly projName?: string;
  readonly datum?: RawDatum;
  readonly datumCode?: string;
  readonly to_meter?: number;
  readonly from_greenwich?: number;
  readonly long_wrap?: number;
  inverse(p: RawPoint): RawPoint | null | undefined;
  forward(p: RawPoint): RawPoint | null | undefined;
}

// proj4js's datum kinds and degree/radian factors (the same literals, so the same doubles).
const PJD_3PARAM = 1;
const PJD_7PARAM = 2;
const PJD_GRIDSHIFT = 3;
const PJD_NODATUM = 5;
const D2R = 0.017453292519943295; // proj4js: 0.01745329251994329577, the same double
const R2D = 57.29577951308232; // proj4js: 57.29577951308232088, the same double

const shifted = (t: number): boolean => t === PJD_3PARAM || t === PJD_7PARAM || t === PJD_GRIDSHIFT;

/** proj4js's test for equal datums (its `compareDatums`). */
function sameDatum(s: RawDatum, d: RawDatum): boolean {
  if (s.datum_type !== d.datum_type) return false;
  if (s.a !== d.a || Math.abs(s.es - d.es) > 0.00000000005) return false;
  const n = s.datum_type === PJD_3PARAM ? 3 : s.datum_type === PJD_7PARAM ? 7 : 0;
  for (let k = 0; k < n; k++) if (s.datum_params?.[k] !== d.datum_params?.[k]) return false;
  return true;
}

/**
 * Whether `proj4.transform(src, dst, {x, y})` takes no datum step and no detour through WGS 84
 * for any point: then it is exactly what `directTransform` computes.
 */
export function isDirectPair(srcProj: object, dstProj: object): boolean {
  const s = srcProj as RawProj;
  const d = dstProj as RawProj;
  if (typeof s.inverse !== 'function' || typeof d.forward !== 'function') return false;
  if (s.projName === 'geocent' || d.projName === 'geocent' || d.long_wrap !== undefined) return false;
  const sd = s.datum;
  const dd = d.datum;
  if (!sd || !dd) return false;
  // proj4js goes through WGS 84 when either datum is shifted and the other CRS is not WGS 84
  if ((shifted(sd.datum_type) && d.datumCode !== 'WGS84') || (shifted(dd.datum_type) && s.datumCode !== 'WGS84')) return false;
  // its datum step returns the point untouched for equal datums or when either has none
  return sameDatum(sd, dd) || sd.datum_type === PJD_NODATUM || dd.datum_type === PJD_NODATUM;
}

const point: RawPoint = { x: 0, y: 0, z: undefined, m: undefined };

/**
 * One point from `src` to `dst` (a pair `isDirectPair` accepted) into out[i], outY[i]; false (out
 * untouched) where proj4js fails, throws or yields non-finite numbers.
 */
export function directTransform(srcProj: object, dstProj: object, x: number, y: number, out: Float64Array, i: number, outY: Float64Array): boolean {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  const s = srcProj as RawProj;
  const d = dstProj as RawProj;
  let p: RawPoint | null | undefined = point;
  let rx: number;
  let ry: number;
  try {
    point.m = undefined;
    if (s.projName === 'longlat') {
      point.x = x * D2R;
      point.y = y * D2R;
      point.z = 0;
    } else {
      if (s.to_meter) {
        point.x = x * s.to_meter;
        point.y = y * s.to_meter;
        point.z = 0;
      } else {
        point.x = x;
        point.y = y;
        point.z = undefined;
      }
      p = s.inverse(point);
      if (!p) return false;
    }
    if (s.from_greenwich) p.x += s.from_greenwich;
    if (d.from_greenwich) p.x = p.x - d.from_greenwich;
    if (d.projName === 'longlat') {
      rx = p.x * R2D;
      ry = p.y * R2D;
    } else {
      p = d.forward(p);
      if (!p) return false;
      rx = d.to_meter ? p.x / d.to_meter : p.x;
      ry = d.to_meter ? p.y / d.to_meter : p.y;
    }
  } catch {
    return false;
  }
  if (!Number.isFinite(rx) || !Number.isFinite(ry)) return false;
  out[i] = rx;
  outY[i] = ry;
  return true;
}
