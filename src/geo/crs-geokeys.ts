/**
 * GeoTIFF GeoKey directory → Crs. Coded CRSs (ProjectedCSTypeGeoKey / GeographicTypeGeoKey)
 * resolve through the EPSG registry; user-defined ones go through geotiff-geokeys-to-proj4, are
 * matched against EPSG/ESRI definitions, and otherwise become CUSTOM CRSs with a GDAL-style WKT1.
 */
import { createRequire } from 'node:module';
import { Errors } from '../errors.ts';
import { localCrsFromGeoKeys } from './crs-local.ts';
import type { Crs } from './crs-type.ts';
import { crsFromDefinition, crsFromEpsg, identifyProj4 } from './crs-registry.ts';
import { geoKeysWkt, type GeoKeyValue } from './geokeys-wkt.ts';
import { formatProj4, GEODETIC_KEYS, parseProj4 } from './proj4-string.ts';

type ToProj4 = typeof import('geotiff-geokeys-to-proj4').toProj4;
let loadedToProj4: ToProj4 | null = null;

/**
 * geotiff-geokeys-to-proj4, loaded on first use: its tables take ~14 MB of memory and only
 * user-defined GeoTIFF CRSs need them (coded ones resolve through the EPSG registry).
 */
function toProj4(...args: Parameters<ToProj4>): ReturnType<ToProj4> {
  loadedToProj4 ??= (createRequire(import.meta.url)('geotiff-geokeys-to-proj4') as { toProj4: ToProj4 }).toProj4;
  return loadedToProj4(...args);
}

/** GeoKey ids (GeoTIFF 1.1 names) understood by geotiff-geokeys-to-proj4. */
const GEOKEY_NAMES: Record<number, string> = {
  1024: 'GTModelTypeGeoKey',
  1025: 'GTRasterTypeGeoKey',
  1026: 'GTCitationGeoKey',
  2048: 'GeographicTypeGeoKey',
  2049: 'GeogCitationGeoKey',
  2050: 'GeogGeodeticDatumGeoKey',
  2051: 'GeogPrimeMeridianGeoKey',
  2052: 'GeogLinearUnitsGeoKey',
  2053: 'GeogLinearUnitSizeGeoKey',
  2054: 'GeogAngularUnitsGeoKey',
  2055: 'GeogAngularUnitSizeGeoKey',
  2056: 'GeogEllipsoidGeoKey',
  2057: 'GeogSemiMajorAxisGeoKey',
  2058: 'GeogSemiMinorAxisGeoKey',
  2059: 'GeogInvFlatteningGeoKey',
  2060: 'GeogAzimuthUnitsGeoKey',
  2061: 'GeogPrimeMeridianLongGeoKey',
  2062: 'GeogTOWGS84GeoKey',
  3072: 'ProjectedCSTypeGeoKey',
  3073: 'PCSCitationGeoKey',
  3074: 'ProjectionGeoKey',
  3075: 'ProjCoordTransGeoKey',
  3076: 'ProjLinearUnitsGeoKey',
  3077: 'ProjLinearUnitSizeGeoKey',
  3078: 'ProjStdParallel1GeoKey',
  3079: 'ProjStdParallel2GeoKey',
  3080: 'ProjNatOriginLongGeoKey',
  3081: 'ProjNatOriginLatGeoKey',
  3082: 'ProjFalseEastingGeoKey',
  3083: 'ProjFalseNorthingGeoKey',
  3084: 'ProjFalseOriginLongGeoKey',
  3085: 'ProjFalseOriginLatGeoKey',
  3086: 'ProjFalseOriginEastingGeoKey',
  3087: 'ProjFalseOriginNorthingGeoKey',
  3088: 'ProjCenterLongGeoKey',
  3089: 'ProjCenterLatGeoKey',
  3090: 'ProjCenterEastingGeoKey',
  3091: 'ProjCenterNorthingGeoKey',
  3092: 'ProjScaleAtNatOriginGeoKey',
  3093: 'ProjScaleAtCenterGeoKey',
  3094: 'ProjAzimuthAngleGeoKey',
  3095: 'ProjStraightVertPoleLongGeoKey',
  3096: 'ProjRectifiedGridAngleGeoKey',
  4096: 'VerticalCSTypeGeoKey',
  4097: 'VerticalCitationGeoKey',
  4098: 'VerticalDatumGeoKey',
  4099: 'VerticalUnitsGeoKey',
};

const USER_DEFINED = 32767;
const isCode = (v: number | undefined): v is number => v !== undefined && v > 0 && v < USER_DEFINED;

/**
 * GeoKey directory → Crs; null when there are no geokeys (an ungeoreferenced TIFF).
 * Throws `InvalidCrs` for geocentric models and definitions proj4js cannot compute.
 */
export function crsFromGeoKeys(keys: Map<number, GeoKeyValue>): Crs | null {
  if (keys.size === 0) return null;
  const num = (k: number): number | undefined => {
    const v = keys.get(k);
    return typeof v === 'number' ? v : undefined;
  };
  const model = num(1024);
  if (model === 3) throw Errors.invalidCrs('Geocentric GeoTIFF CRSs are not supported');
  const pcs = num(3072);
  const gcs = num(2048);
  const hasProjection = keys.has(3074) || keys.has(3075);
  // GDAL: a coded PCS wins for projected (or unspecified) models; a coded GCS for geographic ones.
  let code: number | undefined;
  if (model === 2) code = isCode(gcs) ? gcs : undefined;
  else if (isCode(pcs)) code = pcs;
  else if (model === undefined && isCode(gcs) && !hasProjection) code = gcs;
  if (code !== undefined) {
    try {
      return crsFromEpsg(code);
    } catch {
      // fall through to the parameters (e.g. a code epsg-index does not know)
    }
  }
  if (pcs === undefined && gcs === undefined && !hasProjection && !keys.has(2050) && !keys.has(2056)) {
    // GDAL: no geographic/projected model but GeoKeys present → a local engineering CRS.
    if (model !== 1 && model !== 2) {
      const citation = keys.get(1026);
      return localCrsFromGeoKeys(typeof citation === 'string' ? citation : undefined, num(3076));
    }
    return null;
  }

  const named: Record<string, GeoKeyValue> = {};
  for (const [k, v] of keys) {
    const name = GEOKEY_NAMES[k];
    if (name) named[name] = v;
  }
  // The library's typings require every key; it reads only those present.
  const result = toProj4(named as unknown as Parameters<typeof toProj4>[0]);
  let def = cleanProj4(result.proj4, result.coordinatesConversionParameters?.x ?? 1);
  // A coded geographic CRS under a user-defined projection: use its datum exactly as the EPSG
  // registry defines it (the library only carries the ellipsoid), so the CRS can be identified.
  let geogcs: Crs | null = null;
  if (model !== 2 && isCode(gcs)) {
    try {
      geogcs = crsFromEpsg(gcs);
    } catch {
      geogcs = null;
    }
    if (geogcs?.proj4.startsWith('+')) def = withDatumOf(def, geogcs.proj4);
  }
  const match = identifyProj4(def);
  if (match) return match;
  return crsFromDefinition(def, geoKeysWkt(keys, def, geogcs?.wkt ?? null), false);
}

/** `def` with its datum/ellipsoid parameters replaced by those of `geographic`. */
function withDatumOf(def: string, geographic: string): string {
  const p = parseProj4(def);
  const g = parseProj4(geographic);
  for (const k of GEODETIC_KEYS) p.delete(k);
  const noDefs = p.delete('no_defs');
  for (const k of GEODETIC_KEYS) if (g.has(k)) p.set(k, g.get(k)!);
  if (noDefs) p.set('no_defs', '');
  return formatProj4(p);
}

/** Normalise the library's PROJ string: no axis order (we are always east/north), units folded in. */
function cleanProj4(def: string, unitToMeter: number): string {
  const p = parseProj4(def);
  p.delete('axis');
  // The library maps ProjStdParallel1 to +lat_1; equirectangular's standard parallel is +lat_ts.
  if (p.get('proj') === 'eqc' && p.has('lat_1') && !p.has('lat_ts')) {
    p.set('lat_ts', p.get('lat_1')!);
    p.delete('lat_1');
  }
  if (unitToMeter !== 1 && p.get('proj') !== 'longlat') p.set('to_meter', String(unitToMeter));
  if (!p.has('no_defs')) p.set('no_defs', '');
  return formatProj4(p);
}
