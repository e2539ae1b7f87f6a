/**
 * `parseCrs`: the CRS grammar of titiler's `crs`/`dst_crs`/`coord_crs` parameters (whatever
 * GDAL's `SetFromUserInput` accepts, after stripping CURIE brackets).
 */
import { Errors } from '../errors.ts';
import type { Crs } from './crs-type.ts';
import { CRS84, crsFromDefinition, crsFromEpsg, crsFromEsri } from './crs-registry.ts';
import { localCrsFromGeoKeys } from './crs-local.ts';
import { parseWkt, wktAuthority, WKT_ROOT_KEYWORDS, type WktNode } from './wkt-tree.ts';

const invalid = () => Errors.invalidCrs('invalid CRS format');

/** GDAL's well-known geographic CRS names. */
const WELL_KNOWN: Record<string, number> = { WGS84: 4326, WGS72: 4322, NAD83: 4269, NAD27: 4267 };

function fromAuthority(auth: string, code: string): Crs {
  const a = auth.toUpperCase();
  const c = code.trim();
  if (a === 'EPSG' && /^\d+$/.test(c)) return crsFromEpsg(Number(c));
  if (a === 'ESRI' && /^\d+$/.test(c)) return crsFromEsri(Number(c));
  if (a === 'OGC' && c.toUpperCase() === 'CRS84') return CRS84;
  throw invalid();
}

const cache = new Map<string, Crs>();

/**
 * Parse user input into a Crs. Accepts (case-insensitive prefixes, optional `[...]` brackets):
 * `EPSG:n`, `ESRI:n`, `OGC:CRS84`, `CRS84`, `WGS84`/`NAD83`/`NAD27`/`WGS72`,
 * `http(s)://www.opengis.net/def/crs/{EPSG|OGC|ESRI}/{version}/{code}`,
 * `urn:ogc:def:crs:{EPSG|OGC|ESRI}:{version?}:{code}`, WKT1/WKT2 (an EPSG authority at the root
 * is used directly), PROJ strings (`+proj=…`, `+init=epsg:n`) and PROJJSON.
 * Anything else → `InvalidCrs('invalid CRS format')`.
 */
export function parseCrs(input: string): Crs {
  const hit = cache.get(input);
  if (hit) return hit;
  let crs: Crs;
  try {
    crs = parseUncached(input);
  } catch {
    // Every failure (unknown code, unparsable definition…) is reported the same way.
    throw invalid();
  }
  if (cache.size > 1000) cache.clear();
  cache.set(input, crs);
  return crs;
}

function parseUncached(input: string): Crs {
  let s = input.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1).trim();
  if (!s) throw invalid();

  let m = /^(EPSG|ESRI|OGC):+(\w+)$/i.exec(s);
  if (m) return fromAuthority(m[1]!, m[2]!);
  if (/^CRS84$/i.test(s)) return CRS84;
  const wk = WELL_KNOWN[s.toUpperCase()];
  if (wk) return crsFromEpsg(wk);

  m = /^https?:\/\/www\.opengis\.net\/def\/crs\/(\w+)\/[^/]+\/(\w+)\/?$/i.exec(s);
  if (m) return fromAuthority(m[1]!, m[2]!);
  m = /^urn:ogc:def:crs:(\w+):[^:]*:(\w+)$/i.exec(s);
  if (m) return fromAuthority(m[1]!, m[2]!);

  if (s.startsWith('{')) return fromProjJson(s);

  const kw = /^([A-Za-z_]+)\s*[[(]/.exec(s)?.[1]?.toUpperCase();
  if (kw === 'LOCAL_CS') return fromLocalCsWkt(s);
  if (kw && WKT_ROOT_KEYWORDS.includes(kw)) return fromWkt(s);

  if (/^\+?proj=|^\+init=/i.test(s) || /\s\+proj=/.test(s)) return fromProj4(s);
  throw invalid();
}

function fromWkt(s: string): Crs {
  const root = parseWkt(s);
  if (!root) throw invalid();
  let node = root;
  // A BOUNDCRS wraps the real CRS (its TOWGS84 is carried by proj4js's WKT2 reader).
  if (node.keyword.toUpperCase() === 'BOUNDCRS') {
    const src = node.items.find((i) => typeof i === 'object' && i.keyword.toUpperCase() === 'SOURCECRS');
    const inner = typeof src === 'object' ? src.items.find((i) => typeof i === 'object') : undefined;
    if (typeof inner === 'object') node = inner;
  }
  const auth = wktAuthority(node);
  if (auth) {
    try {
      return fromAuthority(auth.name, auth.code);
    } catch {
      // an authority we do not know: fall back to the definition itself
    }
  }
  return crsFromDefinition(s, s);
}

/** A WKT1 LOCAL_CS (as /info reports a local engineering CRS): its name and EPSG-coded unit. */
function fromLocalCsWkt(s: string): Crs {
  const root = parseWkt(s);
  if (!root) throw invalid();
  const name = typeof root.items[0] === 'string' ? root.items[0] : undefined;
  const unit = root.items.find((i): i is WktNode => typeof i === 'object' && i.keyword.toUpperCase() === 'UNIT');
  const auth = unit ? wktAuthority(unit) : null;
  return localCrsFromGeoKeys(name, auth && auth.name.toUpperCase() === 'EPSG' ? Number(auth.code) : undefined);
}

function fromProj4(s: string): Crs {
  const init = /^\+init=(epsg|esri):(\d+)\s*$/i.exec(s);
  if (init) return fromAuthority(init[1]!, init[2]!);
  const def = s.startsWith('+') ? s : `+${s}`;
  return crsFromDefinition(def);
}

function fromProjJson(s: string): Crs {
  let obj: { id?: { authority?: string; code?: number | string } } & Record<string, unknown>;
  try {
    obj = JSON.parse(s) as typeof obj;
  } catch {
    throw invalid();
  }
  if (obj.id?.authority && obj.id.code !== undefined) return fromAuthority(obj.id.authority, String(obj.id.code));
  return crsFromDefinition(s, null, false);
}
