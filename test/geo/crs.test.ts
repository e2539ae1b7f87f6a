import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { CRS84, WGS84, crsFromEpsg, crsFromGeoKeys, crsInfoString, crsUri, geographicCrsOf, parseCrs, sameCrs } from '../../src/geo/crs.ts';
import { transformPoint } from '../../src/geo/transform.ts';

const epsgWkt = (code: number): string => {
  const path = createRequire(import.meta.url).resolve(`epsg-index/s/${code}.json`);
  return (JSON.parse(readFileSync(path, 'utf8')) as { wkt: string }).wkt;
};

/** GDAL 3.6's /info WKT for rio-tiler's cog_scale.tif (user-defined UTM 52N on an unnamed datum). */
const COG_SCALE_WKT =
  'PROJCS["unnamed",GEOGCS["Unknown datum based upon the WGS 84 ellipsoid",DATUM["Not_specified_based_on_WGS_84_spheroid",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",129],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AXIS["Easting",EAST],AXIS["Northing",NORTH]]';
const MARS_WKT =
  'PROJCS["Equirectangular MARS",GEOGCS["GCS_MARS",DATUM["D_MARS",SPHEROID["MARS_localRadius",3395582.0270805,0]],PRIMEM["Reference_Meridian",0],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]]],PROJECTION["Equirectangular"],PARAMETER["standard_parallel_1",-10],PARAMETER["central_meridian",180],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AXIS["Easting",EAST],AXIS["Northing",NORTH]]';
/** `projinfo -o WKT2_2019 EPSG:3857` (abridged to the parts that matter: the root ID). */
const WKT2_3857 =
  'PROJCRS["WGS 84 / Pseudo-Mercator",BASEGEOGCRS["WGS 84",ENSEMBLE["World Geodetic System 1984 ensemble",MEMBER["World Geodetic System 1984 (Transit)"],ELLIPSOID["WGS 84",6378137,298.257223563,LENGTHUNIT["metre",1]],ENSEMBLEACCURACY[2.0]],PRIMEM["Greenwich",0,ANGLEUNIT["degree",0.0174532925199433]],ID["EPSG",4326]],CONVERSION["Popular Visualisation Pseudo-Mercator",METHOD["Popular Visualisation Pseudo Mercator",ID["EPSG",1024]],PARAMETER["Latitude of natural origin",0,ANGLEUNIT["degree",0.0174532925199433],ID["EPSG",8801]],PARAMETER["Longitude of natural origin",0,ANGLEUNIT["degree",0.0174532925199433],ID["EPSG",8802]],PARAMETER["False easting",0,LENGTHUNIT["metre",1],ID["EPSG",8806]],PARAMETER["False northing",0,LENGTHUNIT["metre",1],ID["EPSG",8807]]],CS[Cartesian,2],AXIS["easting (X)",east,ORDER[1],LENGTHUNIT["metre",1]],AXIS["northing (Y)",north,ORDER[2],LENGTHUNIT["metre",1]],ID["EPSG",3857]]';

describe('parseCrs', () => {
  const cases: Array<[string, string]> = [
    ['EPSG:4326', 'EPSG:4326'],
    ['epsg:32621', 'EPSG:32621'],
    ['  EPSG:3857 ', 'EPSG:3857'],
    ['[EPSG:32621]', 'EPSG:32621'],
    ['OGC:CRS84', 'OGC:CRS84'],
    ['CRS84', 'OGC:CRS84'],
    ['[OGC:CRS84]', 'OGC:CRS84'],
    ['WGS84', 'EPSG:4326'],
    ['NAD83', 'EPSG:4269'],
    ['ESRI:102001', 'ESRI:102001'],
    ['esri:54009', 'ESRI:54009'],
    ['http://www.opengis.net/def/crs/EPSG/0/4326', 'EPSG:4326'],
    ['https://www.opengis.net/def/crs/EPSG/9.8.15/2193', 'EPSG:2193'],
    ['http://www.opengis.net/def/crs/OGC/1.3/CRS84', 'OGC:CRS84'],
    ['http://www.opengis.net/def/crs/OGC/0/CRS84', 'OGC:CRS84'],
    ['http://www.opengis.net/def/crs/ESRI/0/102001', 'ESRI:102001'],
    ['urn:ogc:def:crs:EPSG::5482', 'EPSG:5482'],
    ['urn:ogc:def:crs:EPSG:6.6:4326', 'EPSG:4326'],
    ['urn:ogc:def:crs:OGC:1.3:CRS84', 'OGC:CRS84'],
    ['+init=epsg:3857', 'EPSG:3857'],
    ['+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs', 'EPSG:32633'],
    ['+proj=longlat +datum=WGS84 +no_defs', 'EPSG:4326'],
    ['+proj=aea +lat_0=40 +lon_0=-96 +lat_1=50 +lat_2=70 +x_0=0 +y_0=0 +ellps=GRS80 +towgs84=0,0,0 +units=m', 'ESRI:102001'],
    [WKT2_3857, 'EPSG:3857'],
    ['{"type":"GeographicCRS","name":"WGS 84","id":{"authority":"EPSG","code":4326}}', 'EPSG:4326'],
  ];
  for (const [input, id] of cases) {
    it(`${input.slice(0, 60)} → ${id}`, () => assert.equal(parseCrs(input).id, id));
  }

  it('WKT1 with a root EPSG authority resolves to the EPSG CRS', () => {
    assert.equal(parseCrs(epsgWkt(32621)).id, 'EPSG:32621');
    assert.equal(parseCrs(epsgWkt(4326)).id, 'EPSG:4326');
  });

  it('WKT1 without authority is a user-defined CRS keeping its WKT', () => {
    const crs = parseCrs(COG_SCALE_WKT);
    assert.match(crs.id, /^CUSTOM:/);
    assert.equal(crs.wkt, COG_SCALE_WKT);
    assert.equal(crsUri(crs), null);
    assert.equal(crsInfoString(crs), COG_SCALE_WKT);
    assert.equal(crs.isGeographic, false);
  });

  it('a PROJ string no authority matches is user-defined', () => {
    const crs = parseCrs('+proj=laea +lat_0=45 +lon_0=-100 +x_0=0 +y_0=0 +datum=WGS84 +units=m +no_defs');
    assert.match(crs.id, /^CUSTOM:/);
    assert.equal(crsUri(crs), null);
    // Same definition, same CRS object (cached by canonical form).
    assert.equal(parseCrs('+proj=laea +lon_0=-100 +lat_0=45 +datum=WGS84 +units=m'), crs);
  });

  const invalid = [
    '',
    '[]',
    'EPSG:',
    'EPSG:abc',
    'EPSG:999999',
    'EPSG:0',
    'EPSG:102001', // an ESRI code, not EPSG
    'EPSG:4978', // geocentric
    'ESRI:1',
    'OGC:CRS99',
    'foo',
    '4326',
    'urn:ogc:def:crs:FOO::1',
    'http://example.com/crs/4326',
    '+proj=doesnotexist +ellps=WGS84',
    'PROJCS["broken",GEOGCS[',
    '{not json',
  ];
  for (const input of invalid) {
    it(`rejects ${JSON.stringify(input)}`, () => {
      assert.throws(
        () => parseCrs(input),
        (err: unknown) => isRastileError(err, 'InvalidCrs') && (err as Error).message === 'invalid CRS format',
      );
    });
  }
});

describe('crsFromEpsg', () => {
  it('caches and describes EPSG CRSs', () => {
    const utm = crsFromEpsg(32621);
    assert.equal(utm, crsFromEpsg(32621));
    assert.equal(utm.epsg, 32621);
    assert.equal(utm.isGeographic, false);
    assert.ok(utm.wkt?.startsWith('PROJCS["WGS 84 / UTM zone 21N"'));
    assert.equal(WGS84.id, 'EPSG:4326');
    assert.equal(WGS84.isGeographic, true);
  });
  it('uses the WKT (proj4js datum table) for grid-based definitions', () => {
    // epsg-index's PROJ string for 27700 needs the OSTN15 grid; the WKT gives the Helmert shift.
    assert.ok(!crsFromEpsg(27700).proj4.includes('nadgrids'));
  });
  it('throws InvalidCrs for unknown codes', () => {
    assert.throws(
      () => crsFromEpsg(123456789),
      (e: unknown) => isRastileError(e, 'InvalidCrs'),
    );
    assert.throws(
      () => crsFromEpsg(1.5),
      (e: unknown) => isRastileError(e, 'InvalidCrs'),
    );
  });
});

describe('crsUri / crsInfoString', () => {
  it('names authority CRSs with OGC URIs', () => {
    assert.equal(crsUri(crsFromEpsg(32621)), 'http://www.opengis.net/def/crs/EPSG/0/32621');
    assert.equal(crsUri(CRS84), 'http://www.opengis.net/def/crs/OGC/0/CRS84');
    assert.equal(crsUri(parseCrs('ESRI:102001')), 'http://www.opengis.net/def/crs/ESRI/0/102001');
    assert.equal(crsInfoString(WGS84), 'http://www.opengis.net/def/crs/EPSG/0/4326');
  });
});

describe('sameCrs', () => {
  it('compares CRSs', () => {
    assert.ok(sameCrs(WGS84, CRS84));
    assert.ok(sameCrs(parseCrs('EPSG:3857'), parseCrs('urn:ogc:def:crs:EPSG::3857')));
    assert.ok(!sameCrs(WGS84, parseCrs('EPSG:3857')));
    assert.ok(!sameCrs(parseCrs('EPSG:32631'), parseCrs('EPSG:32632')));
  });
});

describe('geographicCrsOf', () => {
  const cases: Array<[string, string]> = [
    ['EPSG:3857', 'EPSG:4326'],
    ['EPSG:32631', 'EPSG:4326'],
    ['EPSG:3978', 'EPSG:4269'],
    ['EPSG:3035', 'EPSG:4258'],
    ['EPSG:5482', 'EPSG:4764'],
    ['EPSG:2193', 'EPSG:4167'],
    ['EPSG:27700', 'EPSG:4277'],
    ['EPSG:4326', 'EPSG:4326'],
    ['EPSG:4269', 'EPSG:4269'],
    ['OGC:CRS84', 'OGC:CRS84'],
    ['ESRI:102001', 'EPSG:4269'],
    ['+proj=laea +lat_0=45 +lon_0=-100 +datum=WGS84 +units=m', 'EPSG:4326'],
  ];
  for (const [input, id] of cases) it(`${input} → ${id}`, () => assert.equal(geographicCrsOf(parseCrs(input)).id, id));

  it('a user-defined datum keeps its own geographic CRS', () => {
    const g = geographicCrsOf(parseCrs(COG_SCALE_WKT));
    assert.match(g.id, /^CUSTOM:/);
    assert.ok(g.isGeographic);
  });
});

describe('crsFromGeoKeys', () => {
  type Keys = Map<number, number | string | number[]>;
  // GeoKey directories of real fixtures (dumped with @cogeotiff/core).
  const cogTif: Keys = new Map<number, number | string | number[]>([
    [1024, 1],
    [1025, 2],
    [1026, 'WGS 84 / UTM zone 21N'],
    [2049, 'WGS 84'],
    [2054, 9102],
    [3072, 32621],
    [3076, 9001],
  ]);
  const aboveCog: Keys = new Map<number, number | string | number[]>([
    [1024, 1],
    [1025, 1],
    [1026, 'unnamed'],
    [2048, 32767],
    [2049, 'GCS Name = GRS 1980(IUGG, 1980)|Datum = unknown|Ellipsoid = GRS80|Primem = Greenwich|'],
    [2050, 32767],
    [2054, 9102],
    [2056, 32767],
    [2057, 6378137],
    [2059, 298.257222101],
    [2061, 0],
    [2062, [0, 0, 0]],
    [3072, 32767],
    [3074, 32767],
    [3075, 11],
    [3076, 9001],
    [3078, 50],
    [3079, 70],
    [3080, -96],
    [3081, 40],
    [3082, 0],
    [3083, 0],
  ]);
  const cogScale: Keys = new Map<number, number | string | number[]>([
    [1024, 1],
    [1025, 1],
    [1026, 'unnamed'],
    [2048, 32767],
    [2049, 'GCS Name = Unknown datum based upon the WGS 84 ellipsoid|Datum = Not_specified_based_on_WGS_84_spheroid|Primem = Greenwich|'],
    [2050, 32767],
    [2054, 9102],
    [2056, 7030],
    [2057, 6378137],
    [2059, 298.257223563],
    [2061, 0],
    [3072, 32767],
    [3074, 16052],
    [3076, 9001],
  ]);
  const mars: Keys = new Map<number, number | string | number[]>([
    [1024, 1],
    [1025, 1],
    [1026, 'Equirectangular MARS'],
    [2048, 32767],
    [2049, 'GCS Name = GCS_MARS|Datum = D_MARS|Ellipsoid = MARS_localRadius|Primem = Reference_Meridian|'],
    [2050, 32767],
    [2054, 9102],
    [2056, 32767],
    [2057, 3395582.0270805],
    [2058, 3395582.0270805],
    [2061, 0],
    [3072, 32767],
    [3074, 32767],
    [3075, 17],
    [3076, 9001],
    [3078, -10],
    [3082, 0],
    [3083, 0],
    [3088, 180],
    [3089, 0],
  ]);
  const geographic: Keys = new Map<number, number | string | number[]>([
    [1024, 2],
    [1025, 1],
    [2048, 4326],
    [2054, 9102],
  ]);

  it('coded projected CRS → EPSG', () => assert.equal(crsFromGeoKeys(cogTif)?.id, 'EPSG:32621'));
  it('coded geographic CRS → EPSG', () => assert.equal(crsFromGeoKeys(geographic)?.id, 'EPSG:4326'));
  it('user-defined Albers on GRS80 + TOWGS84 → ESRI:102001 (as GDAL matches it)', () => {
    const crs = crsFromGeoKeys(aboveCog)!;
    assert.equal(crsInfoString(crs), 'http://www.opengis.net/def/crs/ESRI/0/102001');
  });
  it('user-defined UTM on an unnamed datum → CUSTOM with GDAL’s WKT', () => {
    const crs = crsFromGeoKeys(cogScale)!;
    assert.match(crs.id, /^CUSTOM:/);
    assert.equal(crsInfoString(crs), COG_SCALE_WKT);
    assert.ok(sameCrs(crs, parseCrs(COG_SCALE_WKT)) || crs.proj4.includes('+lon_0=129'));
  });
  it('non-Earth CRS → CUSTOM with GDAL’s WKT', () => {
    const crs = crsFromGeoKeys(mars)!;
    assert.equal(crsInfoString(crs), MARS_WKT);
  });
  it('coded GCS under a user-defined projection takes the EPSG datum (→ identified as EPSG:32632)', () => {
    const keys: Keys = new Map<number, number | string | number[]>([
      [1024, 1],
      [1025, 1],
      [2048, 4326],
      [2054, 9102],
      [3072, 32767],
      [3074, 32767],
      [3075, 1],
      [3076, 9001],
      [3080, 9],
      [3081, 0],
      [3082, 500000],
      [3083, 0],
      [3092, 0.9996],
    ]);
    assert.equal(crsFromGeoKeys(keys)?.id, 'EPSG:32632');
  });
  it('projected linear units in US survey feet are folded into the definition', () => {
    const keys: Keys = new Map<number, number | string | number[]>([
      [1024, 1],
      [1025, 1],
      [2048, 4269],
      [2054, 9102],
      [3072, 32767],
      [3074, 32767],
      [3075, 8],
      [3076, 9003],
      [3078, 33],
      [3079, 45],
      [3080, -96],
      [3081, 23],
      [3082, 0],
      [3083, 0],
    ]);
    const crs = crsFromGeoKeys(keys)!;
    assert.match(crs.proj4, /\+to_meter=0\.3048006096/);
    assert.ok(crs.wkt?.includes('AUTHORITY["EPSG","4269"]'));
    // 1000 m east/north of the origin, given in feet (gdaltransform: -95.9905485354113 23.008748604933).
    const [lon, lat] = transformPoint(crs, WGS84, 1000 / 0.304800609601219, 1000 / 0.304800609601219);
    assert.ok(Math.abs(lon - -95.9905485354113) < 1e-8 && Math.abs(lat - 23.008748604933) < 1e-8, `${lon} ${lat}`);
  });
  it('no geokeys → null; geocentric → InvalidCrs', () => {
    assert.equal(crsFromGeoKeys(new Map()), null);
    assert.throws(
      () => crsFromGeoKeys(new Map([[1024, 3]])),
      (e: unknown) => isRastileError(e, 'InvalidCrs'),
    );
  });
});
