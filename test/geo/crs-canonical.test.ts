/**
 * CRS identity and identification after the canonical-key caching (sameCrs), the merged
 * EPSG/ESRI canonical index (identifyProj4) and the shared longlat helper (longlatProj4).
 * Expected identities are those GDAL 3.6 reports for the same definitions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crsFromDefinition, crsFromEpsg, geographicCrsOf, identifyProj4, parseCrs, sameCrs, WGS84 } from '../../src/geo/crs.ts';
import type { Crs } from '../../src/geo/crs.ts';
import { GEODETIC_KEYS, geodeticProj4, longlatProj4 } from '../../src/geo/proj4-string.ts';
import { transformPoint } from '../../src/geo/transform.ts';

/** A user-defined British National Grid with its datum given as a 7-parameter TOWGS84 (no authority). */
const OSGB_LIKE_WKT =
  'PROJCS["OSGB-like",GEOGCS["OSGB36",DATUM["OSGB_1936",SPHEROID["Airy 1830",6377563.396,299.3249646],TOWGS84[446.448,-125.157,542.06,0.15,0.247,0.842,-20.489]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",49],PARAMETER["central_meridian",-2],PARAMETER["scale_factor",0.9996012717],PARAMETER["false_easting",400000],PARAMETER["false_northing",-100000],UNIT["metre",1]]';
const MARS_WKT =
  'PROJCS["Equirectangular MARS",GEOGCS["GCS_MARS",DATUM["D_MARS",SPHEROID["MARS_localRadius",3395582.0270805,0]],PRIMEM["Reference_Meridian",0],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]]],PROJECTION["Equirectangular"],PARAMETER["standard_parallel_1",-10],PARAMETER["central_meridian",180],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AXIS["Easting",EAST],AXIS["Northing",NORTH]]';

describe('sameCrs (canonical keys cached per Crs)', () => {
  it('different ids with the same canonical PROJ string are the same CRS, every time', () => {
    const custom = crsFromDefinition('+proj=longlat +ellps=WGS84 +towgs84=0,0,0,0,0,0,0 +no_defs', null, false);
    assert.match(custom.id, /^CUSTOM:/);
    for (let i = 0; i < 3; i++) {
      assert.ok(sameCrs(custom, WGS84));
      assert.ok(sameCrs(WGS84, custom));
      assert.ok(!sameCrs(custom, crsFromEpsg(3857)));
    }
  });

  it('a Crs built outside the registry is compared by its definition', () => {
    const literal: Crs = { id: 'TEST:utm31', proj4: '+proj=utm +zone=31 +datum=WGS84 +units=m +no_defs', epsg: null, isGeographic: false, wkt: null };
    assert.ok(sameCrs(literal, crsFromEpsg(32631)));
    assert.ok(sameCrs(literal, crsFromEpsg(32631)));
    assert.ok(!sameCrs(literal, crsFromEpsg(32632)));
  });

  it('WKT-defined CRSs are only the same by id or identical text', () => {
    const wkt = crsFromEpsg(27700); // OSGB36: defined by its WKT (its PROJ string needs a grid)
    assert.ok(!wkt.proj4.startsWith('+'));
    assert.ok(sameCrs(wkt, crsFromEpsg(27700)));
    assert.ok(!sameCrs(wkt, crsFromEpsg(4326)));
  });
});

describe('identifyProj4 (one EPSG/ESRI canonical index)', () => {
  it('matches EPSG first, ESRI table rows otherwise, and nothing without a datum', () => {
    assert.equal(identifyProj4('+proj=longlat +datum=WGS84 +no_defs'), WGS84);
    assert.equal(identifyProj4('+proj=utm +zone=33 +ellps=WGS84 +towgs84=0,0,0 +units=m +no_defs')?.id, 'EPSG:32633');
    assert.equal(
      identifyProj4('+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs')?.id,
      'EPSG:3857',
    );
    assert.equal(identifyProj4('+proj=moll +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +towgs84=0,0,0 +units=m')?.id, 'ESRI:54009');
    assert.equal(identifyProj4('+proj=moll +lon_0=0 +x_0=0 +y_0=0 +R=6371000 +units=m'), null, 'no datum shift: never matched');
    assert.equal(identifyProj4('+proj=utm +zone=33 +ellps=WGS84 +units=m +no_defs'), null);
    assert.equal(identifyProj4('+proj=tmerc +lon_0=7.123 +ellps=WGS84 +towgs84=0,0,0 +no_defs'), null, 'no such CRS');
  });
});

describe('longlatProj4', () => {
  it('writes both axes (b defaults to a: a sphere), never "undefined"', () => {
    assert.equal(longlatProj4(6378137, 6356752.314245179), '+proj=longlat +a=6378137 +b=6356752.314245179 +no_defs');
    assert.equal(longlatProj4(6371000, undefined), '+proj=longlat +a=6371000 +b=6371000 +no_defs');
    assert.equal(
      longlatProj4(6377563.396, 6356256.909, [446.448, -125.157, 542.06]),
      '+proj=longlat +a=6377563.396 +b=6356256.909 +towgs84=446.448,-125.157,542.06 +no_defs',
    );
    assert.equal(longlatProj4(6378137, 6378137, []), '+proj=longlat +a=6378137 +b=6378137 +no_defs');
    assert.equal(longlatProj4(undefined, undefined), '+proj=longlat +ellps=WGS84 +no_defs');
  });

  it('geographicCrsOf a WKT-defined CRS keeps its ellipsoid and its 7-parameter shift in PROJ units', () => {
    const crs = parseCrs(OSGB_LIKE_WKT);
    assert.match(crs.id, /^CUSTOM:/);
    const g = geographicCrsOf(crs);
    assert.ok(g.isGeographic);
    assert.equal(g.proj4, '+proj=longlat +a=6377563.396 +b=6356256.909237285 +towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489 +no_defs');
    // Same datum both sides: the projection's natural origin is (lon_0, lat_0), to proj4js's
    // geocentric round-trip noise (~1e-8°; the shift read in the wrong units was 2e-4°, ~15 m off).
    const [lon, lat] = transformPoint(crs, g, 400000, -100000);
    assert.ok(Math.abs(lon - -2) < 1e-7 && Math.abs(lat - 49) < 1e-7, `${lon} ${lat}`);
    const mars = geographicCrsOf(parseCrs(MARS_WKT));
    assert.equal(mars.proj4, '+proj=longlat +a=3395582.0270805 +b=3395582.0270805 +no_defs');
  });

  it('GEODETIC_KEYS are what geodeticProj4 keeps', () => {
    assert.ok(GEODETIC_KEYS.includes('towgs84') && GEODETIC_KEYS.includes('nadgrids'));
    assert.equal(
      geodeticProj4('+proj=utm +zone=31 +ellps=intl +towgs84=-87,-98,-121 +units=m +no_defs'),
      '+proj=longlat +ellps=intl +towgs84=-87,-98,-121 +no_defs',
    );
    assert.equal(parseCrs('EPSG:4326'), WGS84);
  });
});
