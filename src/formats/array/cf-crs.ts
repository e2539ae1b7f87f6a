/**
 * The CRS of a CF variable: its `grid_mapping` variable's `crs_wkt` / `spatial_ref` (WKT, as GDAL
 * and rioxarray write it) when present, else a PROJ string built from the CF grid-mapping
 * parameters (CF conventions Appendix F), else EPSG:4326 (titiler-cmr's assumption). Grid mappings
 * we cannot express are a clear 400 naming them.
 */
import { Errors, isRastileError } from '../../errors.ts';
import { crsFromDefinition, parseCrs, WGS84 } from '../../geo/crs.ts';
import type { Crs } from '../../geo/crs-type.ts';
import type { AttrValue } from './array-model.ts';

type Attrs = Readonly<Record<string, AttrValue>>;

const num = (a: Attrs, key: string): number | undefined => {
  const v = a[key];
  if (typeof v === 'number') return v;
  if (Array.isArray(v) && typeof v[0] === 'number') return v[0] as number;
  return undefined;
};

const nums = (a: Attrs, key: string): number[] => {
  const v = a[key];
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) return (v as readonly unknown[]).filter((x): x is number => typeof x === 'number');
  return [];
};

export const SUPPORTED_GRID_MAPPINGS = [
  'latitude_longitude',
  'polar_stereographic',
  'lambert_conformal_conic',
  'transverse_mercator',
  'lambert_azimuthal_equal_area',
  'albers_conical_equal_area',
  'geostationary',
  'mercator',
  'orthographic',
  'stereographic',
  'lambert_cylindrical_equal_area',
  'sinusoidal',
] as const;

/** The ellipsoid part of a PROJ string (WGS84 when the mapping names none). */
function ellipsoid(a: Attrs): string {
  const r = num(a, 'earth_radius');
  if (r !== undefined) return `+R=${r}`;
  const major = num(a, 'semi_major_axis');
  const minor = num(a, 'semi_minor_axis');
  const rf = num(a, 'inverse_flattening');
  if (major !== undefined && minor !== undefined) return `+a=${major} +b=${minor}`;
  if (major !== undefined && rf !== undefined) return rf === 0 ? `+R=${major}` : `+a=${major} +rf=${rf}`;
  if (major !== undefined) return `+R=${major}`;
  return '+datum=WGS84';
}

/** A PROJ string for a CF grid mapping (null for latitude_longitude on the WGS84 ellipsoid: EPSG:4326). */
export function cfGridMappingProj4(a: Attrs): string | null {
  const name = typeof a['grid_mapping_name'] === 'string' ? a['grid_mapping_name'] : '';
  const fe = num(a, 'false_easting') ?? 0;
  const fn = num(a, 'false_northing') ?? 0;
  const offsets = `+x_0=${fe} +y_0=${fn}`;
  const lat0 = num(a, 'latitude_of_projection_origin') ?? 0;
  const sp = nums(a, 'standard_parallel');
  const lonCm = num(a, 'longitude_of_central_meridian') ?? num(a, 'longitude_of_projection_origin') ?? 0;
  const lonPo = num(a, 'longitude_of_projection_origin') ?? num(a, 'longitude_of_central_meridian') ?? 0;
  const ell = ellipsoid(a);
  switch (name) {
    case 'latitude_longitude':
      return ell === '+datum=WGS84' ? null : `+proj=longlat ${ell} +no_defs`;
    case 'polar_stereographic': {
      const lon0 = num(a, 'straight_vertical_longitude_from_pole') ?? lonPo;
      const k = num(a, 'scale_factor_at_projection_origin');
      const ts = sp.length > 0 ? `+lat_ts=${sp[0]}` : `+k=${k ?? 1}`;
      return `+proj=stere +lat_0=${lat0 >= 0 ? 90 : -90} ${ts} +lon_0=${lon0} ${offsets} ${ell} +units=m +no_defs`;
    }
    case 'lambert_conformal_conic': {
      const lat1 = sp[0] ?? lat0;
      const lat2 = sp[1] ?? lat1;
      return `+proj=lcc +lat_0=${lat0} +lon_0=${lonCm} +lat_1=${lat1} +lat_2=${lat2} ${offsets} ${ell} +units=m +no_defs`;
    }
    case 'transverse_mercator': {
      const k = num(a, 'scale_factor_at_central_meridian') ?? 1;
      return `+proj=tmerc +lat_0=${lat0} +lon_0=${lonCm} +k=${k} ${offsets} ${ell} +units=m +no_defs`;
    }
    case 'lambert_azimuthal_equal_area':
      return `+proj=laea +lat_0=${lat0} +lon_0=${lonPo} ${offsets} ${ell} +units=m +no_defs`;
    case 'albers_conical_equal_area': {
      const lat1 = sp[0] ?? lat0;
      const lat2 = sp[1] ?? lat1;
      return `+proj=aea +lat_0=${lat0} +lon_0=${lonCm} +lat_1=${lat1} +lat_2=${lat2} ${offsets} ${ell} +units=m +no_defs`;
    }
    case 'geostationary': {
      const h = num(a, 'perspective_point_height');
      if (h === undefined) throw Errors.badRequest("CF grid mapping 'geostationary' without perspective_point_height");
      const sweep =
        typeof a['sweep_angle_axis'] === 'string'
          ? a['sweep_angle_axis']
          : typeof a['fixed_angle_axis'] === 'string' && a['fixed_angle_axis'] === 'y'
            ? 'x'
            : 'y';
      return `+proj=geos +h=${h} +lon_0=${lonPo} +sweep=${sweep} ${offsets} ${ell} +units=m +no_defs`;
    }
    case 'mercator': {
      const k = num(a, 'scale_factor_at_projection_origin');
      const ts = sp.length > 0 ? `+lat_ts=${sp[0]}` : `+k=${k ?? 1}`;
      return `+proj=merc ${ts} +lon_0=${lonPo} ${offsets} ${ell} +units=m +no_defs`;
    }
    case 'orthographic':
      return `+proj=ortho +lat_0=${lat0} +lon_0=${lonPo} ${offsets} ${ell} +units=m +no_defs`;
    case 'stereographic': {
      const k = num(a, 'scale_factor_at_projection_origin') ?? 1;
      return `+proj=stere +lat_0=${lat0} +lon_0=${lonPo} +k=${k} ${offsets} ${ell} +units=m +no_defs`;
    }
    case 'lambert_cylindrical_equal_area':
      return `+proj=cea +lat_ts=${sp[0] ?? 0} +lon_0=${lonCm} ${offsets} ${ell} +units=m +no_defs`;
    case 'sinusoidal':
      return `+proj=sinu +lon_0=${lonCm} ${offsets} ${ell} +units=m +no_defs`;
    default:
      throw Errors.badRequest(
        `CF grid mapping '${name || '(no grid_mapping_name)'}' is not supported (supported: ${SUPPORTED_GRID_MAPPINGS.join(', ')}; or give the grid mapping a crs_wkt)`,
      );
  }
}

/** The CRS of a grid-mapping variable's attributes (null attrs: no grid mapping → EPSG:4326). */
export function crsFromGridMapping(attrs: Attrs | null): Crs {
  if (attrs === null) return WGS84;
  for (const key of ['crs_wkt', 'spatial_ref']) {
    const wkt = attrs[key];
    if (typeof wkt === 'string' && wkt.trim() !== '') {
      try {
        return parseCrs(wkt);
      } catch {
        // A WKT we cannot read: the CF parameters may still describe the projection.
      }
    }
  }
  if (typeof attrs['grid_mapping_name'] !== 'string') {
    const epsg = num(attrs, 'epsg_code') ?? num(attrs, 'EPSG');
    if (epsg !== undefined) return parseCrs(`EPSG:${epsg}`);
    return WGS84;
  }
  if (attrs['grid_mapping_name'] === 'rotated_latitude_longitude') {
    throw Errors.badRequest("CF grid mapping 'rotated_latitude_longitude' (a rotated pole grid) is not supported: its grid cannot be warped here");
  }
  const proj = cfGridMappingProj4(attrs);
  if (proj === null) return WGS84;
  try {
    return crsFromDefinition(proj);
  } catch (err) {
    if (isRastileError(err)) throw Errors.invalidCrs(`CF grid mapping '${String(attrs['grid_mapping_name'])}' gives an invalid CRS (${proj})`);
    throw err;
  }
}
