/**
 * Point transformers between two CRSs (proj4js underneath), cached per pair. Coordinates are always
 * x = east/longitude, y = north/latitude. Points that fail become NaN, as GDAL marks them failed.
 */
import type { Crs } from './crs-type.ts';
import { localCrsTransformError } from './crs-local.ts';
import { sameCrs } from './crs-registry.ts';
import { directTransform, isDirectPair } from './proj4-direct.ts';
import { makeProj, projHandle, transformOne } from './proj4-lib.ts';
import { geodeticProj4, longlatProj4 } from './proj4-string.ts';

/** PROJ string of the geographic CRS on the datum of `def` (PROJ string or WKT). */
function geodeticProj4OfProj(def: string): string {
  if (def.startsWith('+')) return geodeticProj4(def);
  const p = projHandle(makeProj(def));
  return longlatProj4(p.a, p.b);
}

export interface Transformer {
  readonly src: Crs;
  readonly dst: Crs;
  /** True when both CRSs are the same: `forward` only maps non-finite input to NaN. */
  readonly isIdentity: boolean;
  /** Transform in place; failed points become NaN. */
  forward(xs: Float64Array, ys: Float64Array): void;
}

/**
 * proj4js keeps computing where PROJ reports an error (a pole seen from the opposite polar
 * stereographic, far outside a transverse Mercator zone…) and returns huge numbers: treat
 * projected results beyond this magnitude as failures, as PROJ does.
 */
const MAX_PROJECTED = 1e12;

const LON_WRAP_TOLERANCE_DEG = (1e-12 * 180) / Math.PI;

/**
 * Whether an ellipsoid of semi-major axis `a` is the Earth's. PROJ refuses to transform between
 * celestial bodies (a Mars CRS to WGS 84 fails); it tells bodies apart by their size.
 */
const isEarthSized = (a: number | undefined): boolean => a === undefined || Math.abs(a - 6378137) / 6378137 < 0.05;

/** The proj4js Mercator constants needed to evaluate PROJ's formula at the poles. */
interface MercParams {
  a: number;
  k0: number;
  e: number;
  x0: number;
  y0: number;
  long0: number;
}

/**
 * PROJ's Mercator forward has no pole check (y = a·k0·(asinh(tan φ) − e·atanh(e·sin φ))): at
 * φ = ±90° it returns ±2.4e8 m where proj4js fails. GDAL's warp-output and bounds computations
 * for global geographic rasters depend on those finite values, so reproduce them.
 */
function mercatorAtPole(m: MercParams, lonDeg: number, latDeg: number): [number, number] {
  let lam = (lonDeg * Math.PI) / 180 - m.long0;
  if (lam > Math.PI || lam < -Math.PI) lam -= 2 * Math.PI * Math.round(lam / (2 * Math.PI));
  const phi = (Math.sign(latDeg) * Math.PI) / 2;
  const y = Math.asinh(Math.tan(phi)) - m.e * Math.atanh(m.e * Math.sin(phi));
  return [m.x0 + m.a * m.k0 * lam, m.y0 + m.a * m.k0 * y];
}

class ProjTransformer implements Transformer {
  readonly isIdentity: boolean;
  private readonly srcProj;
  private readonly dstProj;
  private readonly dstProjected: boolean;
  private readonly srcGeographic: boolean;
  private readonly wrapLon: boolean;
  private readonly differentBodies: boolean;
  /** proj4js's transform, or the same without its per-point objects where the pair allows (proj4-direct.ts). */
  private readonly one: typeof transformOne;
  /** Set when the destination is Mercator: source → destination-datum longlat, for the pole case. */
  private readonly merc: { params: MercParams; toGeog: ReturnType<typeof makeProj> } | null;

  constructor(
    readonly src: Crs,
    readonly dst: Crs,
  ) {
    this.isIdentity = sameCrs(src, dst);
    this.srcProj = makeProj(src.proj4);
    this.dstProj = makeProj(dst.proj4);
    this.one = isDirectPair(this.srcProj, this.dstProj) ? directTransform : transformOne;
    this.dstProjected = !dst.isGeographic;
    this.srcGeographic = src.isGeographic;
    // PROJ's inverse projections return longitudes in [-180, 180]; proj4js may not.
    this.wrapLon = dst.isGeographic && !src.isGeographic;
    this.differentBodies = isEarthSized(projHandle(this.srcProj).a) !== isEarthSized(projHandle(this.dstProj).a);
    const d = this.dstProj as unknown as Partial<MercParams> & { projName?: string };
    this.merc =
      d.projName === 'merc' && d.a !== undefined && d.k0 !== undefined
        ? {
            params: { a: d.a, k0: d.k0, e: d.e ?? 0, x0: d.x0 ?? 0, y0: d.y0 ?? 0, long0: d.long0 ?? 0 },
            toGeog: makeProj(geodeticProj4OfProj(dst.proj4)),
          }
        : null;
  }

  /** Mercator destination, point failed: succeed like PROJ when the point is exactly at a pole. */
  private mercPole(x: number, y: number, xs: Float64Array, ys: Float64Array, i: number): boolean {
    const m = this.merc!;
    const gx = new Float64Array(1);
    const gy = new Float64Array(1);
    if (this.srcGeographic) {
      gx[0] = x;
      gy[0] = y;
    } else if (!transformOne(this.srcProj, m.toGeog, x, y, gx, 0, gy)) return false;
    if (Math.abs(Math.abs(gy[0]!) - 90) > 1e-12) return false;
    const [mx, my] = mercatorAtPole(m.params, gx[0]!, gy[0]!);
    xs[i] = mx;
    ys[i] = my;
    return true;
  }

  forward(xs: Float64Array, ys: Float64Array): void {
    const n = xs.length;
    if (this.isIdentity) {
      for (let i = 0; i < n; i++) {
        if (!Number.isFinite(xs[i]!) || !Number.isFinite(ys[i]!)) xs[i] = ys[i] = NaN;
      }
      return;
    }
    if (this.differentBodies) {
      xs.fill(NaN);
      ys.fill(NaN);
      return;
    }
    for (let i = 0; i < n; i++) {
      const x = xs[i]!;
      const y = ys[i]!;
      if (this.srcGeographic && Math.abs(y) > 90 + 1e-9) {
        xs[i] = ys[i] = NaN;
        continue;
      }
      if (!this.one(this.srcProj, this.dstProj, x, y, xs, i, ys)) {
        if (!(this.merc && this.mercPole(x, y, xs, ys, i))) xs[i] = ys[i] = NaN;
        continue;
      }
      if (this.dstProjected) {
        if (Math.abs(xs[i]!) > MAX_PROJECTED || Math.abs(ys[i]!) > MAX_PROJECTED) xs[i] = ys[i] = NaN;
      } else if (this.wrapLon) {
        // PROJ's adjlon leaves |λ| < π + 1e-12 rad alone (so x = +20037508.34 stays +180).
        const lon = xs[i]!;
        if (Math.abs(lon) > 180 + LON_WRAP_TOLERANCE_DEG) xs[i] = lon - 360 * Math.floor((lon + 180) / 360);
        else if (lon > 180) xs[i] = 180;
        else if (lon < -180) xs[i] = -180;
      }
    }
  }
}

/**
 * Why no transformation relates `src` and `dst` when they lie on different celestial bodies
 * (one ellipsoid Earth-sized, the other not: PROJ refuses such transformations), else null.
 */
export function celestialBodyMismatch(src: Crs, dst: Crs): string | null {
  if (src.engineering || dst.engineering) return null;
  let a: number | undefined;
  let b: number | undefined;
  try {
    a = projHandle(makeProj(src.proj4)).a;
    b = projHandle(makeProj(dst.proj4)).a;
  } catch {
    return null;
  }
  if (isEarthSized(a) === isEarthSized(b)) return null;
  const [body, other, radius] = isEarthSized(a) ? [dst, src, b] : [src, dst, a];
  const name = /GEOGCS\["([^"]+)"/.exec(body.wkt ?? '')?.[1];
  return (
    `${name ? `The CRS "${name}"` : `The CRS ${body.id}`} is not on the Earth (its ellipsoid's semi-major axis is ${radius} m, not ~6378 km), ` +
    `so no transformation relates it to ${other.id}: read it in its own CRS (info, statistics, preview, point and part with coord_crs/dst_crs set to it), ` +
    'not in an Earth tile matrix set (tiles need a TMS defined on that body)'
  );
}

/** The transformer of a CRS to itself (used for local engineering CRSs, which proj4js cannot define). */
class IdentityTransformer implements Transformer {
  readonly isIdentity = true;
  constructor(
    readonly src: Crs,
    readonly dst: Crs,
  ) {}

  forward(xs: Float64Array, ys: Float64Array): void {
    for (let i = 0; i < xs.length; i++) {
      if (!Number.isFinite(xs[i]!) || !Number.isFinite(ys[i]!)) xs[i] = ys[i] = NaN;
    }
  }
}

const cache = new Map<string, Transformer>();

/** Transformer from `src` to `dst` (cached per pair). */
export function getTransformer(src: Crs, dst: Crs): Transformer {
  const key = `${src.id}\n${dst.id}`;
  let t = cache.get(key);
  if (!t) {
    if (src.engineering || dst.engineering) {
      // No datum: only the CRS itself relates to a local engineering CRS.
      if (!sameCrs(src, dst)) throw localCrsTransformError(src, dst);
      return new IdentityTransformer(src, dst);
    }
    t = new ProjTransformer(src, dst);
    if (cache.size > 512) cache.clear();
    cache.set(key, t);
  }
  return t;
}

const px = new Float64Array(1);
const py = new Float64Array(1);

/** Transform one point; `[NaN, NaN]` when it fails. */
export function transformPoint(src: Crs, dst: Crs, x: number, y: number): [number, number] {
  px[0] = x;
  py[0] = y;
  getTransformer(src, dst).forward(px, py);
  return [px[0]!, py[0]!];
}
