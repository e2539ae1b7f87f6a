/**
 * How a CRS is named to API clients: OGC CRS URIs (`Content-Crs`, TileSet `crs`, /info `crs`)
 * and the WKT fallback of /info for CRSs without an authority.
 */
import type { Crs } from './crs-type.ts';

/**
 * `http://www.opengis.net/def/crs/{AUTH}/0/{code}` for EPSG, ESRI and OGC (CRS84) CRSs; null for
 * user-defined CRSs that no authority code matches.
 */
export function crsUri(crs: Crs): string | null {
  const m = /^(EPSG|ESRI|OGC):(\w+)$/.exec(crs.id);
  return m ? `http://www.opengis.net/def/crs/${m[1]}/0/${m[2]}` : null;
}

/** The /info `crs` string: the URI, else the WKT (else the PROJ string as a last resort). */
export function crsInfoString(crs: Crs): string {
  return crsUri(crs) ?? crs.wkt ?? crs.proj4;
}
