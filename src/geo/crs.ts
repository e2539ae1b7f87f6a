/**
 * Coordinate reference systems: the shared `Crs` shape and the registry's public API
 * (implemented in crs-registry.ts, crs-parse.ts, crs-uri.ts and crs-geokeys.ts).
 */
export interface Crs {
  /** Canonical key: "EPSG:4326", "OGC:CRS84", "ESRI:102001", or "CUSTOM:<hash>" for user-defined ones. */
  readonly id: string;
  /** Definition handed to proj4js (a PROJ string, or WKT when that describes the datum better). */
  readonly proj4: string;
  /** EPSG code when the CRS is (equivalent to) an EPSG CRS. */
  readonly epsg: number | null;
  readonly isGeographic: boolean;
  /** WKT1 text, used by /info when the CRS has no authority code. */
  readonly wkt: string | null;
}

export {
  CRS84,
  WGS84,
  crsFromDefinition,
  crsFromEpsg,
  crsFromEsri,
  geographicCrsOf,
  identifyProj4,
  sameCrs,
} from './crs-registry.ts';
export { parseCrs } from './crs-parse.ts';
export { crsInfoString, crsUri } from './crs-uri.ts';
export { crsFromGeoKeys } from './crs-geokeys.ts';
