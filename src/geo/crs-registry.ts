/**
 * CRS registry: builds cached `Crs` values from EPSG codes (epsg-index definitions plus a small
 * override table), ESRI codes (committed table), PROJ strings and WKT.
 *
 * Definition policy (measured in DEPENDENCIES.md §2): use epsg-index's PROJ string, except when it
 * carries a `+nadgrids` grid file (proj4js has no grids): then use the WKT1, whose datum proj4js
 * maps to a Helmert shift through its own datum table (e.g. OSGB36 → the same 7 parameters PROJ
 * uses when the grid is absent). WKT2/PROJJSON are accepted as user input only.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { Errors } from '../errors.ts';
import { LruCache } from '../util/lru-cache.ts';
import type { Crs } from './crs-type.ts';
import { ESRI_CRS } from './crs-esri-data.ts';
import { EPSG_OVERRIDES } from './crs-overrides.ts';
import { makeProj, projHandle } from './proj4-lib.ts';
import { canonicalProj4, formatProj4, geodeticProj4, longlatProj4, parseProj4 } from './proj4-string.ts';
import { parseWkt, wktAuthority, wktChild, type WktNode } from './wkt-tree.ts';

const require = createRequire(import.meta.url);
const epsgDir = require.resolve('epsg-index/package.json').replace(/package\.json$/, 's/');

interface EpsgEntry {
  code: string;
  kind: string;
  name: string;
  wkt: string | null;
  proj4: string | null;
}

const SUPPORTED_KINDS = new Set(['CRS-PROJCRS', 'CRS-GEOGCRS', 'CRS-GEOG3DCRS', 'CRS-COMPOUNDCRS']);

/** Extra data the registry keeps per CRS (not part of the shared `Crs` shape). */
interface CrsExtra {
  /** Cached geodetic CRS, computed lazily. */
  geodetic?: Crs;
  /** EPSG code of the geodetic CRS when known from the definition (EPSG WKT or ESRI table). */
  geodeticEpsg?: number | null;
  /** `canonicalProj4` of a PROJ-string definition (null for WKT/PROJJSON), computed lazily. */
  canonical?: string | null;
}
const extras = new WeakMap<Crs, CrsExtra>();

const byId = new Map<string, Crs>();

function register(crs: Crs, extra: CrsExtra = {}): Crs {
  const hit = byId.get(crs.id);
  if (hit) return hit;
  Object.freeze(crs);
  byId.set(crs.id, crs);
  extras.set(crs, extra);
  return crs;
}

/**
 * epsg-index also carries ESRI codes (53xxx/54xxx world projections and ≥ 100000, e.g. 102001)
 * under the same numbering: they are not EPSG codes.
 */
const isEsriRange = (code: number): boolean => (code >= 53000 && code < 55000) || (code >= 100000 && code !== 900913);

const isLongLat = (def: string): boolean => /\+proj=(longlat|latlong|lonlat|latlon)\b/.test(def);

function readEpsgEntry(code: number): EpsgEntry | null {
  if (!Number.isInteger(code) || code <= 0 || code > 99_999_999) return null;
  try {
    return JSON.parse(readFileSync(`${epsgDir}${code}.json`, 'utf8')) as EpsgEntry;
  } catch {
    return null;
  }
}

/** The EPSG code of the base geographic CRS named inside an EPSG WKT1 (`PROJCS[..GEOGCS[..AUTHORITY]]`). */
function baseGeographicCode(wkt: string | null): number | null {
  if (!wkt) return null;
  const root = parseWkt(wkt);
  if (!root) return null;
  const kw = root.keyword.toUpperCase();
  let geog: WktNode | undefined;
  if (kw === 'GEOGCS' || kw === 'GEOGCRS' || kw === 'GEOGRAPHICCRS') geog = root;
  else if (kw === 'COMPD_CS' || kw === 'COMPOUNDCRS') {
    const horiz = wktChild(root, 'PROJCS', 'GEOGCS', 'PROJCRS', 'GEOGCRS');
    geog = horiz && (/^GEOG/i.test(horiz.keyword) ? horiz : wktChild(horiz, 'GEOGCS', 'BASEGEOGCRS', 'BASEGEODCRS'));
  } else geog = wktChild(root, 'GEOGCS', 'BASEGEOGCRS', 'BASEGEODCRS');
  const auth = geog && wktAuthority(geog);
  return auth && auth.name === 'EPSG' ? Number(auth.code) : null;
}

const epsgCache = new Map<number, Crs | Error>();

/** EPSG code → Crs. Throws `InvalidCrs` for unknown codes and CRSs proj4js cannot compute. */
export function crsFromEpsg(code: number): Crs {
  const hit = epsgCache.get(code);
  if (hit instanceof Error) throw hit;
  if (hit) return hit;
  try {
    const crs = buildEpsg(code);
    epsgCache.set(code, crs);
    return crs;
  } catch (err) {
    const e = Errors.invalidCrs(`Unknown or unsupported CRS: EPSG:${code}`);
    if (Number.isInteger(code)) epsgCache.set(code, e);
    throw e;
  }
}

function buildEpsg(code: number): Crs {
  if (isEsriRange(code)) throw new Error('not an EPSG code');
  return buildFromIndex(code, `EPSG:${code}`, code);
}

function buildFromIndex(code: number, id: string, epsg: number | null): Crs {
  const entry = readEpsgEntry(code);
  const override = EPSG_OVERRIDES[code];
  if (!entry && !override) throw new Error('unknown code');
  if (entry && !SUPPORTED_KINDS.has(entry.kind)) throw new Error(`unsupported kind ${entry.kind}`);
  let def = override?.proj4 ?? entry?.proj4 ?? null;
  if (!def && entry?.wkt) def = entry.wkt;
  if (!def) throw new Error('no definition');
  if (!override && /\+nadgrids=(?!@null)/.test(def)) def = definitionWithoutGrids(def, entry?.wkt ?? null);
  if (def.startsWith('+')) {
    // Vertical parts of compound CRSs are irrelevant for 2D work.
    const p = parseProj4(def);
    for (const k of ['geoidgrids', 'vunits', 'vto_meter', 'type']) p.delete(k);
    def = formatProj4(p);
  }
  makeProj(def);
  const isGeographic = def.startsWith('+') ? isLongLat(def) : /^\s*GEOG/i.test(def);
  const geodeticEpsg = isGeographic ? code : (override?.geodeticEpsg ?? baseGeographicCode(entry?.wkt ?? null));
  return register({ id, proj4: def, epsg, isGeographic, wkt: entry?.wkt ?? null }, { geodeticEpsg });
}

/**
 * proj4js has no grid files: prefer the WKT1 (proj4js maps well-known datum names to their
 * Helmert parameters); fall back to the PROJ string without the grid (a "ballpark" datum).
 */
function definitionWithoutGrids(def: string, wkt: string | null): string {
  if (wkt) {
    try {
      const p = projHandle(makeProj(wkt));
      const params = p.datum?.datum_params;
      if (params && params.some((v) => v !== 0)) return wkt;
    } catch {
      // fall through
    }
  }
  return def.replace(/\s*\+nadgrids=\S+/, '');
}

/** ESRI code → Crs: the committed table, else the ESRI entries epsg-index carries. */
export function crsFromEsri(code: number): Crs {
  const id = `ESRI:${code}`;
  const hit = byId.get(id);
  if (hit) return hit;
  const row = ESRI_CRS.find((r) => r[0] === code);
  try {
    if (row) {
      makeProj(row[2]);
      return register({ id, proj4: row[2], epsg: null, isGeographic: false, wkt: null }, { geodeticEpsg: row[3] });
    }
    if (isEsriRange(code)) return buildFromIndex(code, id, null);
  } catch {
    // fall through
  }
  throw Errors.invalidCrs(`Unknown or unsupported CRS: ESRI:${code}`);
}

/** OGC:CRS84 — WGS 84 with longitude first; numerically the same as EPSG:4326 in our x/y order. */
export const CRS84: Crs = register(
  {
    id: 'OGC:CRS84',
    proj4: '+proj=longlat +datum=WGS84 +no_defs',
    epsg: null,
    isGeographic: true,
    wkt: 'GEOGCS["WGS 84 (CRS84)",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Longitude",EAST],AXIS["Latitude",NORTH],AUTHORITY["OGC","CRS84"]]',
  },
  { geodeticEpsg: null },
);

/** EPSG:4326 (we always use x = longitude, y = latitude). */
export const WGS84: Crs = crsFromEpsg(4326);

const hashOf = (s: string): string => createHash('sha1').update(s).digest('hex').slice(0, 16);

/**
 * A user-defined CRS from a PROJ string or WKT. When the definition is exactly an EPSG/ESRI CRS
 * (same canonical parameters, including the datum), the authority CRS is returned instead, so
 * `crsUri` can name it (GDAL's authority matching does the same for confident matches).
 */
export function crsFromDefinition(def: string, wkt: string | null = null, identify = true): Crs {
  const text = def.trim();
  let handle;
  try {
    handle = projHandle(makeProj(text));
  } catch {
    throw Errors.invalidCrs('invalid CRS format');
  }
  const isGeographic = handle.projName === 'longlat';
  if (identify && text.startsWith('+')) {
    const match = identifyProj4(text);
    if (match) return match;
  }
  const key = text.startsWith('+') ? canonicalProj4(text) : text;
  return register({ id: `CUSTOM:${hashOf(key)}`, proj4: text, epsg: null, isGeographic, wkt }, {});
}

// ---------------------------------------------------------------------------------------------
// Identification of user-defined CRSs (exact canonical PROJ-string match).

/** The authority codes whose definition has one canonical PROJ string. */
interface CanonicalMatch {
  epsg?: number;
  esri?: number;
}

let canonicalIndex: Map<string, CanonicalMatch> | null = null;

/**
 * Canonical PROJ string → EPSG code (every EPSG projected/geographic CRS) and ESRI code (the
 * committed ESRI table), built once, lazily.
 */
function authorityCanonicalIndex(): Map<string, CanonicalMatch> {
  if (canonicalIndex) return canonicalIndex;
  const all = JSON.parse(readFileSync(`${epsgDir}../all.json`, 'utf8')) as Record<string, EpsgEntry>;
  const idx = new Map<string, CanonicalMatch>();
  for (const e of Object.values(all)) {
    if ((e.kind !== 'CRS-PROJCRS' && e.kind !== 'CRS-GEOGCRS') || !e.proj4 || isEsriRange(Number(e.code))) continue;
    if (/\+nadgrids=(?!@null)/.test(e.proj4)) continue;
    const key = canonicalProj4(e.proj4);
    const code = Number(e.code);
    const prev = idx.get(key);
    // Several codes can share parameters (deprecated duplicates): keep the lowest code.
    if (prev === undefined) idx.set(key, { epsg: code });
    else if (code < prev.epsg!) prev.epsg = code;
  }
  for (const [code, , def] of ESRI_CRS) {
    const key = canonicalProj4(def);
    const prev = idx.get(key);
    // The first table row wins among ESRI codes; EPSG codes are preferred over ESRI ones at lookup.
    if (prev === undefined) idx.set(key, { esri: code });
    else if (prev.esri === undefined) prev.esri = code;
  }
  canonicalIndex = idx;
  return idx;
}

/** The Crs of a canonical-index match, EPSG preferred; null when neither code can be built. */
function crsOfMatch(match: CanonicalMatch): Crs | null {
  if (match.epsg !== undefined) {
    try {
      return crsFromEpsg(match.epsg);
    } catch {
      // an EPSG definition proj4js cannot compute: try the ESRI code
    }
  }
  if (match.esri !== undefined) {
    try {
      return crsFromEsri(match.esri);
    } catch {
      // no usable authority CRS
    }
  }
  return null;
}

// Keyed by user-supplied definitions: bounded, so arbitrary CRS strings cannot grow it forever.
const identifyCache = new LruCache<string, Crs | null>(1024, () => 1);

/**
 * The EPSG (preferred) or ESRI CRS whose canonical PROJ string equals `def`'s, or null. A
 * definition without a datum shift (no `+towgs84`/`+datum`) is never matched: GDAL does not
 * match such "unknown datum" CRSs either.
 */
export function identifyProj4(def: string): Crs | null {
  const key = canonicalProj4(def);
  const cached = identifyCache.get(key);
  if (cached !== undefined) return cached;
  let result: Crs | null = null;
  // A datum shift (`+towgs84` without a real grid) or PROJ's "no grid" marker `+nadgrids=@null`.
  const hasDatum = (/\+towgs84=/.test(key) && !/\+nadgrids=(?!@null)/.test(key)) || /\+nadgrids=@null/.test(key);
  if (hasDatum) {
    if (key === canonicalKey(WGS84)) result = WGS84;
    else {
      const match = authorityCanonicalIndex().get(key);
      result = match ? crsOfMatch(match) : null;
    }
  }
  identifyCache.set(key, result);
  return result;
}

// ---------------------------------------------------------------------------------------------

/** True when both CRSs are the same coordinate system (4326 and CRS84 are, in our x/y order). */
export function sameCrs(a: Crs, b: Crs): boolean {
  if (a === b || a.id === b.id) return true;
  if (a.proj4 === b.proj4) return true;
  // the same definition text (e.g. /info's WKT of a user-defined CRS handed back as coord_crs)
  if (a.wkt !== null && a.wkt === b.wkt) return true;
  const ka = canonicalKey(a);
  return ka !== null && ka === canonicalKey(b);
}

/** `canonicalProj4` of a CRS's PROJ string (null for WKT/PROJJSON definitions), computed once per Crs. */
function canonicalKey(crs: Crs): string | null {
  let extra = extras.get(crs);
  if (extra === undefined) {
    // A Crs built outside the registry: remember its key all the same.
    extra = {};
    extras.set(crs, extra);
  }
  if (extra.canonical === undefined) extra.canonical = crs.proj4.startsWith('+') ? canonicalProj4(crs.proj4) : null;
  return extra.canonical;
}

/** proj4js's datum type of a 7-parameter shift, and its arc-second → radian factor. */
const PJD_7PARAM = 2;
const SEC_TO_RAD = 4.84813681109535993589914102357e-6;

/**
 * A proj4js datum's shift as PROJ `+towgs84` values: proj4js keeps the rotations of a
 * 7-parameter shift in radians and its scale as a factor; PROJ strings use arc-seconds and ppm.
 */
function towgs84InProjUnits(datum: { datum_type?: number; datum_params?: number[] } | undefined): number[] {
  const t = datum?.datum_params ?? [];
  if (datum?.datum_type !== PJD_7PARAM || t.length < 7) return t;
  const round = (v: number): number => Number(v.toPrecision(12)); // drop the unit round trip's noise
  return [t[0]!, t[1]!, t[2]!, round(t[3]! / SEC_TO_RAD), round(t[4]! / SEC_TO_RAD), round(t[5]! / SEC_TO_RAD), round((t[6]! - 1) * 1e6)];
}

/**
 * The geodetic CRS of a CRS (pyproj `CRS.geodetic_crs`): EPSG:4326 for WGS 84-based CRSs,
 * 4269 for NAD83, 4258 for ETRS89, 4167 for NZGD2000, 4764 for RSRGD2000…; geographic CRSs
 * (and OGC:CRS84) are their own.
 */
export function geographicCrsOf(crs: Crs): Crs {
  if (crs.isGeographic) return crs;
  const extra = extras.get(crs) ?? {};
  if (extra.geodetic) return extra.geodetic;
  let result: Crs | null = null;
  if (extra.geodeticEpsg) {
    try {
      result = crsFromEpsg(extra.geodeticEpsg);
    } catch {
      result = null;
    }
  }
  if (!result) {
    let def = crs.proj4;
    if (!def.startsWith('+')) {
      // WKT: read the datum from proj4js's interpretation.
      const p = projHandle(makeProj(def));
      def = longlatProj4(p.a, p.b, towgs84InProjUnits(p.datum));
    }
    result = crsFromDefinition(geodeticProj4(def), null);
  }
  extras.set(crs, { ...extra, geodetic: result });
  return result;
}
