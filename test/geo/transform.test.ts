import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CRS84, WGS84, parseCrs } from '../../src/geo/crs.ts';
import { datasetGeographicBounds, getTransformer, transformBounds, transformPoint } from '../../src/geo/transform.ts';

const MARS =
  'PROJCS["Equirectangular MARS",GEOGCS["GCS_MARS",DATUM["D_MARS",SPHEROID["MARS_localRadius",3395582.0270805,0]],PRIMEM["Reference_Meridian",0],UNIT["degree",0.0174532925199433]],PROJECTION["Equirectangular"],PARAMETER["standard_parallel_1",-10],PARAMETER["central_meridian",180],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1]]';

describe('getTransformer', () => {
  it('is cached per pair and transforms in place', () => {
    const t = getTransformer(WGS84, parseCrs('EPSG:3857'));
    assert.equal(t, getTransformer(WGS84, parseCrs('EPSG:3857')));
    const xs = Float64Array.of(0, 180, NaN);
    const ys = Float64Array.of(0, 0, 10);
    t.forward(xs, ys);
    assert.ok(Math.abs(xs[0]!) < 1e-6 && Math.abs(ys[0]!) < 1e-6);
    assert.ok(Math.abs(xs[1]! - 20037508.342789244) < 1e-6);
    assert.ok(Number.isNaN(xs[2]!) && Number.isNaN(ys[2]!));
  });
  it('is the identity between equal CRSs (EPSG:4326 and OGC:CRS84 included)', () => {
    const t = getTransformer(WGS84, CRS84);
    assert.ok(t.isIdentity);
    const xs = Float64Array.of(12.5, Infinity);
    const ys = Float64Array.of(-7.25, 1);
    t.forward(xs, ys);
    assert.deepEqual([xs[0], ys[0]], [12.5, -7.25]);
    assert.ok(Number.isNaN(xs[1]!));
  });
  it('fails between celestial bodies (as PROJ does)', () => {
    const [x, y] = transformPoint(parseCrs(MARS), WGS84, 7376380.5, -860015.5);
    assert.ok(Number.isNaN(x) && Number.isNaN(y));
  });
  it('fails for latitudes beyond the poles', () => {
    assert.ok(Number.isNaN(transformPoint(WGS84, parseCrs('EPSG:32631'), 3, 91)[0]));
  });
  it('evaluates Mercator at the poles like PROJ (finite ±2.4e8 m)', () => {
    assert.deepEqual(transformPoint(WGS84, parseCrs('EPSG:3857'), 0, 90), [0, 242528680.94374272]);
    assert.deepEqual(transformPoint(WGS84, parseCrs('EPSG:3395'), 0, -90), [0, -242485887.60835055]);
  });
});

describe('transformBounds', () => {
  it('returns the input for the same CRS', () => {
    assert.deepEqual(transformBounds(WGS84, CRS84, [-180, 90, 180, -90]), [-180, 90, 180, -90]);
  });
  it('fails like GDAL for a geographic source with maxY < minY', () => {
    assert.ok(transformBounds(WGS84, parseCrs('EPSG:3857'), [-180, 90, 180, -90]).every(Number.isNaN));
  });
  it('crosses the antimeridian with minX > maxX', () => {
    const b = transformBounds(parseCrs('EPSG:32660'), WGS84, [570585.0, 5612085.0, 803115.0, 5847615.0]);
    assert.ok(b[0] > 177 && b[2] < -178);
  });
  it('widens to the pole when it lies inside the source box', () => {
    const b = transformBounds(parseCrs('EPSG:3413'), WGS84, [-2e6, -2e6, 2e6, 2e6]);
    assert.deepEqual([b[0], b[2], b[3]], [-180, 180, 90]);
  });
  it('rejects densify counts GDAL rejects (our callers pass constants: Internal)', () => {
    assert.throws(() => transformBounds(parseCrs('EPSG:3857'), WGS84, [0, 0, 1, 1], 1), {
      kind: 'Internal',
      message: 'densifyPoints must be at least 2 for geographic output',
    });
  });
});

describe('datasetGeographicBounds', () => {
  it('orders y for a south-up raster in the same CRS', () => {
    assert.deepEqual(datasetGeographicBounds(WGS84, [-180, 90, 180, -90], WGS84), [-180, -90, 180, 90]);
  });
  it('falls back to the whole world when the transform fails', () => {
    assert.deepEqual(datasetGeographicBounds(parseCrs(MARS), [7376380.5, -868433, 7381972, -860015.5], WGS84), [-180, -90, 180, 90]);
    assert.deepEqual(datasetGeographicBounds(WGS84, [-180, 90, 180, -90], parseCrs('EPSG:4269')), [-180, -90, 180, 90]);
  });
});
