/**
 * Coordinate reference systems: the shared `Crs` shape and the registry's public API
 * (implemented in crs-registry.ts, crs-parse.ts, crs-uri.ts and crs-geokeys.ts).
 */
export type { Crs } from './crs-type.ts';

export { CRS84, WGS84, crsFromDefinition, crsFromEpsg, crsFromEsri, geographicCrsOf, identifyProj4, sameCrs } from './crs-registry.ts';
export { parseCrs } from './crs-parse.ts';
export { crsInfoString, crsUri } from './crs-uri.ts';
export { crsFromGeoKeys } from './crs-geokeys.ts';
