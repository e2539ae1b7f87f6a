/**
 * WKT1 for user-defined GeoTIFF CRSs, written the way GDAL 3.6 reports them in /info (names from
 * the GeoTIFF citations, EPSG authorities for coded ellipsoids and units, GDAL's WKT1 parameter
 * names and order). Returns null for projection methods we have no GDAL naming for.
 */
import { ellipsoidOf, parseProj4 } from './proj4-string.ts';

export type GeoKeyValue = number | string | number[];

/** EPSG ellipsoid codes → GDAL name, semi-major axis, inverse flattening (the common ones). */
const ELLIPSOIDS: Record<number, [name: string, a: number, rf: number]> = {
  7001: ['Airy 1830', 6377563.396, 299.3249646],
  7004: ['Bessel 1841', 6377397.155, 299.1528128],
  7008: ['Clarke 1866', 6378206.4, 294.978698213898],
  7012: ['Clarke 1880 (RGS)', 6378249.145, 293.465],
  7019: ['GRS 1980', 6378137, 298.257222101],
  7022: ['International 1924', 6378388, 297],
  7024: ['Krassowsky 1940', 6378245, 298.3],
  7030: ['WGS 84', 6378137, 298.257223563],
  7043: ['WGS 72', 6378135, 298.26],
};

/** GDAL's WKT1 projection name and its parameters (WKT1 name, PROJ key, default) in GDAL's order. */
const METHODS: Record<string, { name: string; params: Array<[string, string, number]> }> = {
  tmerc: {
    name: 'Transverse_Mercator',
    params: [
      ['latitude_of_origin', 'lat_0', 0],
      ['central_meridian', 'lon_0', 0],
      ['scale_factor', 'k_0', 1],
      ['false_easting', 'x_0', 0],
      ['false_northing', 'y_0', 0],
    ],
  },
  eqc: {
    name: 'Equirectangular',
    params: [
      ['standard_parallel_1', 'lat_ts', 0],
      ['central_meridian', 'lon_0', 0],
      ['false_easting', 'x_0', 0],
      ['false_northing', 'y_0', 0],
    ],
  },
  aea: {
    name: 'Albers_Conic_Equal_Area',
    params: [
      ['latitude_of_center', 'lat_0', 0],
      ['longitude_of_center', 'lon_0', 0],
      ['standard_parallel_1', 'lat_1', 0],
      ['standard_parallel_2', 'lat_2', 0],
      ['false_easting', 'x_0', 0],
      ['false_northing', 'y_0', 0],
    ],
  },
  lcc: {
    name: 'Lambert_Conformal_Conic_2SP',
    params: [
      ['standard_parallel_1', 'lat_1', 0],
      ['standard_parallel_2', 'lat_2', 0],
      ['latitude_of_origin', 'lat_0', 0],
      ['central_meridian', 'lon_0', 0],
      ['false_easting', 'x_0', 0],
      ['false_northing', 'y_0', 0],
    ],
  },
  laea: {
    name: 'Lambert_Azimuthal_Equal_Area',
    params: [
      ['latitude_of_center', 'lat_0', 0],
      ['longitude_of_center', 'lon_0', 0],
      ['false_easting', 'x_0', 0],
      ['false_northing', 'y_0', 0],
    ],
  },
  stere: {
    name: 'Polar_Stereographic',
    params: [
      ['latitude_of_origin', 'lat_ts', 90],
      ['central_meridian', 'lon_0', 0],
      ['scale_factor', 'k_0', 1],
      ['false_easting', 'x_0', 0],
      ['false_northing', 'y_0', 0],
    ],
  },
  merc: {
    name: 'Mercator_1SP',
    params: [
      ['central_meridian', 'lon_0', 0],
      ['scale_factor', 'k_0', 1],
      ['false_easting', 'x_0', 0],
      ['false_northing', 'y_0', 0],
    ],
  },
  sinu: {
    name: 'Sinusoidal',
    params: [
      ['longitude_of_center', 'lon_0', 0],
      ['false_easting', 'x_0', 0],
      ['false_northing', 'y_0', 0],
    ],
  },
};

/** GDAL prints WKT numbers with up to 15 significant digits ("%.15g"), trailing zeros trimmed. */
export function wktNumber(v: number): string {
  if (Number.isInteger(v)) return String(v);
  const s = v.toPrecision(15);
  return String(Number(s));
}

const q = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** Parse GDAL's `GCS Name = X|Datum = Y|Ellipsoid = Z|Primem = P|` citation into its fields. */
function citationFields(citation: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!citation) return out;
  for (const part of citation.split('|')) {
    const m = /^\s*([^=]+?)\s*=\s*(.*?)\s*$/.exec(part);
    if (m) out[m[1]!.toLowerCase()] = m[2]!;
  }
  return out;
}

/**
 * WKT1 (GDAL flavour) for a user-defined CRS described by GeoKeys and the PROJ string built from
 * them; null when the projection method is not one we can name like GDAL does.
 */
export function geoKeysWkt(keys: Map<number, GeoKeyValue>, proj4: string, geogcsWkt: string | null = null): string | null {
  const p = parseProj4(proj4);
  const str = (k: number): string | undefined => {
    const v = keys.get(k);
    return typeof v === 'string' ? v : undefined;
  };
  const numk = (k: number): number | undefined => {
    const v = keys.get(k);
    return typeof v === 'number' ? v : undefined;
  };
  const fields = citationFields(str(2049));
  const ellCode = numk(2056);
  const known = ellCode !== undefined ? ELLIPSOIDS[ellCode] : undefined;
  let a = numk(2057) ?? known?.[1];
  let rf = numk(2059) ?? known?.[2];
  if (rf === undefined && a !== undefined && numk(2058) !== undefined) {
    const b = numk(2058)!;
    rf = a === b ? 0 : a / (a - b);
  }
  if (a === undefined || rf === undefined) {
    const ell = ellipsoidOf(p);
    if (!ell) return null;
    [a, rf] = ell;
  }
  const ellName = known ? known[0] : (fields['ellipsoid'] ?? 'unnamed');
  const spheroid = `SPHEROID[${q(ellName)},${wktNumber(a)},${wktNumber(rf)}` + (known ? `,AUTHORITY["EPSG","${ellCode}"]` : '') + ']';
  const towgs = keys.get(2062);
  const towgsWkt = Array.isArray(towgs) ? `,TOWGS84[${[...towgs, 0, 0, 0, 0, 0, 0, 0].slice(0, 7).map(wktNumber).join(',')}]` : '';
  const datumName = fields['datum'] ?? 'unknown';
  const gcsName = fields['gcs name'] ?? (fields['datum'] ? fields['datum'] : 'unknown');
  const pmName = fields['primem'] ?? 'Greenwich';
  const pm = Number(p.get('pm') ?? 0) || 0;
  // A coded geographic CRS is written as its EPSG definition (authorities included), as GDAL does.
  const geogcs =
    geogcsWkt && /^GEOGCS\[/.test(geogcsWkt)
      ? geogcsWkt
      : `GEOGCS[${q(gcsName)},DATUM[${q(datumName)},${spheroid}${towgsWkt}],PRIMEM[${q(pmName)},${wktNumber(pm)}],` +
        'UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]]]';
  const projName = p.get('proj');
  if (projName === 'longlat') {
    return geogcsWkt ? geogcs : geogcs.replace(/]$/, ',AXIS["Latitude",NORTH],AXIS["Longitude",EAST]]');
  }
  const method = projName ? METHODS[projName] : undefined;
  if (!method) return null;
  const params = method.params
    .map(([wktName, key, dflt]) => {
      const raw = p.get(key) ?? (key === 'k_0' ? p.get('k') : undefined);
      const v = raw !== undefined ? Number(raw) : dflt;
      return `PARAMETER[${q(wktName)},${wktNumber(v)}]`;
    })
    .join(',');
  const name = str(1026) ?? str(3073) ?? 'unnamed';
  const toMeter = Number(p.get('to_meter') ?? 1);
  const unit = toMeter === 1 ? 'UNIT["metre",1,AUTHORITY["EPSG","9001"]]' : `UNIT["unknown",${wktNumber(toMeter)}]`;
  return `PROJCS[${q(name)},${geogcs},PROJECTION[${q(method.name)}],${params},${unit},AXIS["Easting",EAST],AXIS["Northing",NORTH]]`;
}
