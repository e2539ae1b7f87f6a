/**
 * Local engineering CRSs (WKT1 `LOCAL_CS`, e.g. "Cartesian (Meter)"): what GDAL makes of a
 * GeoTIFF whose GeoKeys name no geographic or projected model (GTIFGetOGISDefn: any GeoKey at
 * all → LOCAL_CS named by GTCitationGeoKey, in ProjLinearUnitsGeoKey units). Such coordinates
 * can be read, measured and rendered in the CRS itself, but no transformation relates them to
 * the Earth.
 */
import { createHash } from 'node:crypto';
import { Errors } from '../errors.ts';
import type { Crs } from './crs-type.ts';

/** EPSG linear units GDAL names (code → name, metres per unit). */
const LINEAR_UNITS: Record<number, [string, number]> = {
  9001: ['metre', 1],
  9002: ['foot', 0.3048],
  9003: ['US survey foot', 0.3048006096012192],
  9036: ['kilometre', 1000],
};

const wktNum = (v: number): string => String(v);

/** The LOCAL_CS GDAL (and so rasterio) reports for these GeoKeys. */
export function localCrsFromGeoKeys(citation: string | undefined, linearUnits: number | undefined): Crs {
  const name = (citation ?? '').trim() || 'unnamed';
  const unit = linearUnits !== undefined ? LINEAR_UNITS[linearUnits] : undefined;
  const unitWkt = unit ? `UNIT["${unit[0]}",${wktNum(unit[1])},AUTHORITY["EPSG","${linearUnits}"]]` : 'UNIT["unknown",1]';
  const wkt = `LOCAL_CS["${name.replace(/"/g, '""')}",${unitWkt},AXIS["Easting",EAST],AXIS["Northing",NORTH]]`;
  const hash = createHash('sha1').update(wkt).digest('hex').slice(0, 16);
  return { id: `LOCAL:${hash}`, proj4: wkt, epsg: null, isGeographic: false, wkt, engineering: true };
}

/** The name of a local CRS as its WKT gives it. */
export function localCrsName(crs: Crs): string {
  return /^LOCAL_CS\["((?:[^"]|"")*)"/.exec(crs.wkt ?? '')?.[1]?.replace(/""/g, '"') ?? 'unnamed';
}

/** The error for any transformation between a local engineering CRS and another CRS. */
export function localCrsTransformError(src: Crs, dst: Crs): Error {
  const local = src.engineering ? src : dst;
  const other = src.engineering ? dst : src;
  return Errors.invalidCrs(
    `The local engineering CRS "${localCrsName(local)}" has no relation to ${other.engineering ? 'another local CRS' : other.id}: ` +
      'data in it can be read in its own CRS only (info, statistics, preview, part without dst_crs), not in an Earth CRS or tile matrix set',
  );
}
