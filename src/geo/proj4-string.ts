/**
 * PROJ-string helpers: tokenising, a canonical form for equality/identification, and the
 * geodetic ("longlat") part of a definition.
 */

/** `+proj=utm +zone=33 +no_defs` → Map{proj: 'utm', zone: '33', no_defs: ''} (insertion order kept; keys are case-sensitive like PROJ's: `+R` is a radius). */
export function parseProj4(def: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const tok of def.trim().split(/\s+/)) {
    if (!tok) continue;
    const t = tok.startsWith('+') ? tok.slice(1) : tok;
    const eq = t.indexOf('=');
    if (eq < 0) out.set(t, '');
    else out.set(t.slice(0, eq), t.slice(eq + 1));
  }
  return out;
}

export function formatProj4(params: Map<string, string>): string {
  return [...params].map(([k, v]) => (v === '' ? `+${k}` : `+${k}=${v}`)).join(' ');
}

const DATUM_EXPANSION: Record<string, [ellps: string, towgs84: string]> = {
  WGS84: ['WGS84', '0,0,0'],
  NAD83: ['GRS80', '0,0,0'],
  NAD27: ['clrk66', ''],
};

/** Semi-major axis and inverse flattening (0 = sphere) of PROJ's common named ellipsoids. */
const ELLIPSOIDS: Record<string, [a: number, rf: number]> = {
  WGS84: [6378137, 298.257223563],
  GRS80: [6378137, 298.257222101],
  WGS72: [6378135, 298.26],
  intl: [6378388, 297],
  clrk66: [6378206.4, 294.978698213898],
  clrk80: [6378249.145, 293.465],
  clrk80ign: [6378249.2, 293.466021293627],
  bessel: [6377397.155, 299.1528128],
  bess_nam: [6377483.865, 299.1528128],
  airy: [6377563.396, 299.3249646],
  mod_airy: [6377340.189, 299.3249646],
  krass: [6378245, 298.3],
  aust_SA: [6378160, 298.25],
  GRS67: [6378160, 298.247167427],
  evrst30: [6377276.345, 300.8017],
  helmert: [6378200, 298.3],
  hough: [6378270, 297],
  sphere: [6370997, 0],
};

const DROP = new Set(['no_defs', 'type', 'wktext', 'title', 'axis']);

const num = (v: string): string => {
  const n = Number(v);
  return Number.isFinite(n) ? String(n) : v;
};

/** `[a, rf]` of the ellipsoid a PROJ string describes (rf 0 for a sphere), or null. */
export function ellipsoidOf(p: Map<string, string>): [number, number] | null {
  const datum = p.get('datum');
  const named = p.get('ellps') ?? (datum ? DATUM_EXPANSION[datum]?.[0] : undefined);
  const base = named ? ELLIPSOIDS[named] : undefined;
  const R = p.get('R');
  if (R !== undefined) return [Number(R), 0];
  const a = p.has('a') ? Number(p.get('a')) : base?.[0];
  if (a === undefined || !Number.isFinite(a)) return null;
  if (p.has('rf')) return [a, Number(p.get('rf'))];
  if (p.has('f')) return [a, Number(p.get('f')) === 0 ? 0 : 1 / Number(p.get('f'))];
  if (p.has('b')) {
    const b = Number(p.get('b'));
    return [a, a === b ? 0 : a / (a - b)];
  }
  if (base && p.has('a') && base[0] !== a) return [a, 0];
  return base ? [a, base[1]] : [a, 0];
}

/**
 * Canonical key of a PROJ string: sorted parameters, numbers normalised, defaults dropped,
 * `+datum=WGS84`/`NAD83` expanded, UTM rewritten as its transverse Mercator parameters. Two
 * definitions with the same key describe the same CRS (the converse does not always hold).
 */
export function canonicalProj4(def: string): string {
  const p = parseProj4(def);
  for (const k of DROP) p.delete(k);
  const ell = ellipsoidOf(p);
  const datum = p.get('datum');
  if (datum && DATUM_EXPANSION[datum] && !p.has('towgs84') && DATUM_EXPANSION[datum][1]) p.set('towgs84', DATUM_EXPANSION[datum][1]);
  for (const k of ['datum', 'ellps', 'a', 'b', 'rf', 'f', 'R']) p.delete(k);
  if (ell) {
    p.set('a', String(ell[0]));
    // Inverse flattenings computed from a/b carry rounding noise: compare to 1e-6.
    p.set('rf', String(Math.round(ell[1] * 1e6) / 1e6));
  }
  const towgs = p.get('towgs84');
  if (towgs !== undefined) {
    const parts = towgs.split(',').map((x) => Number(x));
    // 7 parameters whose rotations and scale are zero are the same shift as 3 parameters.
    const trimmed = parts.length === 7 && parts.slice(3).every((x) => x === 0) ? parts.slice(0, 3) : parts;
    p.set('towgs84', trimmed.map((x) => String(x)).join(','));
  }
  if (p.get('proj') === 'utm') {
    const zone = Number(p.get('zone'));
    const south = p.has('south');
    p.delete('zone');
    p.delete('south');
    p.set('proj', 'tmerc');
    p.set('lat_0', '0');
    p.set('lon_0', String(zone * 6 - 183));
    p.set('k', '0.9996');
    p.set('x_0', '500000');
    p.set('y_0', south ? '10000000' : '0');
  }
  if (p.has('k_0')) {
    if (!p.has('k')) p.set('k', p.get('k_0')!);
    p.delete('k_0');
  }
  if (p.get('units') === 'm') p.delete('units');
  if (p.get('pm') === 'greenwich' || (p.has('pm') && Number(p.get('pm')) === 0)) p.delete('pm');
  // PROJ's defaults for projection parameters.
  for (const k of ['lat_0', 'lon_0', 'x_0', 'y_0', 'lat_ts']) if (p.get(k) !== undefined && Number(p.get(k)) === 0) p.delete(k);
  if (p.get('k') !== undefined && Number(p.get('k')) === 1) p.delete('k');
  const entries = [...p].map(([k, v]) => [k, k === 'towgs84' || k === 'proj' ? v : num(v)] as const);
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return entries.map(([k, v]) => (v === '' ? `+${k}` : `+${k}=${v}`)).join(' ');
}

/** The PROJ parameters that describe a datum (ellipsoid, shift, grids, prime meridian). */
export const GEODETIC_KEYS: readonly string[] = Object.freeze(['datum', 'ellps', 'a', 'b', 'rf', 'f', 'R', 'towgs84', 'nadgrids', 'pm']);

/** The geographic (longlat) CRS sharing the datum of `def`, as a PROJ string. */
export function geodeticProj4(def: string): string {
  const p = parseProj4(def);
  const out = new Map<string, string>([['proj', 'longlat']]);
  for (const k of GEODETIC_KEYS) {
    const v = p.get(k);
    if (v !== undefined) out.set(k, v);
  }
  if (out.size === 1) out.set('ellps', 'WGS84');
  out.set('no_defs', '');
  return formatProj4(out);
}

/**
 * `+proj=longlat` on an ellipsoid given by its axes (as proj4js reads them from a WKT): `b`
 * defaults to `a` (a sphere), no `a` at all falls back to WGS 84 like `geodeticProj4`;
 * `towgs84` (Helmert parameters) is written only when non-empty.
 */
export function longlatProj4(a: number | undefined, b: number | undefined, towgs84: readonly number[] = []): string {
  const ellipsoid = a === undefined ? '+ellps=WGS84' : `+a=${a} +b=${b ?? a}`;
  return `+proj=longlat ${ellipsoid}${towgs84.length ? ` +towgs84=${towgs84.join(',')}` : ''} +no_defs`;
}
