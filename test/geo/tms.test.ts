import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { crsUri, parseCrs } from '../../src/geo/crs.ts';
import { getTileMatrixSet, TMS_IDS } from '../../src/geo/tms.ts';

const badRequest = (e: unknown): boolean => isRastileError(e, 'BadRequest');

describe('TMS registry', () => {
  it('lists the 13 ids in sorted byte order', () => {
    assert.equal(TMS_IDS.length, 13);
    assert.deepEqual([...TMS_IDS], [...TMS_IDS].sort());
    assert.equal(TMS_IDS[0], 'CDB1GlobalGrid');
    assert.equal(TMS_IDS[12], 'WorldMercatorWGS84Quad');
  });
  it('rejects unknown ids (case-sensitive)', () => {
    assert.throws(() => getTileMatrixSet('webmercatorquad'), badRequest);
    assert.throws(() => getTileMatrixSet('Foo'), badRequest);
  });
  const expected: Record<string, [crs: string, geographic: string, inverted: boolean, min: number, max: number]> = {
    CDB1GlobalGrid: ['EPSG:4326', 'EPSG:4326', true, -10, 21],
    CanadianNAD83_LCC: ['EPSG:3978', 'EPSG:4269', false, 0, 25],
    EuropeanETRS89_LAEAQuad: ['EPSG:3035', 'EPSG:4258', true, 0, 15],
    GNOSISGlobalGrid: ['EPSG:4326', 'EPSG:4326', true, 0, 28],
    LINZAntarticaMapTilegrid: ['EPSG:5482', 'EPSG:4764', true, 0, 13],
    NZTM2000Quad: ['EPSG:2193', 'EPSG:4167', true, 0, 21],
    UPSAntarcticWGS84Quad: ['EPSG:5042', 'EPSG:4326', false, 0, 24],
    UPSArcticWGS84Quad: ['EPSG:5041', 'EPSG:4326', false, 0, 24],
    UTM31WGS84Quad: ['EPSG:32631', 'EPSG:4326', false, 1, 24],
    WGS1984Quad: ['EPSG:4326', 'EPSG:4326', true, 0, 23],
    WebMercatorQuad: ['EPSG:3857', 'EPSG:4326', false, 0, 24],
    WorldCRS84Quad: ['OGC:CRS84', 'OGC:CRS84', false, 0, 23],
    WorldMercatorWGS84Quad: ['EPSG:3395', 'EPSG:4326', false, 0, 24],
  };
  for (const id of TMS_IDS) {
    it(`${id}: CRS, geographic CRS, axis order, zoom range`, () => {
      const tms = getTileMatrixSet(id);
      const [crs, geo, inv, min, max] = expected[id]!;
      assert.equal(tms.crs.id, crs);
      assert.equal(tms.geographicCrs.id, geo);
      assert.equal(tms.axisInverted, inv);
      assert.equal(tms.minzoom, min);
      assert.equal(tms.maxzoom, max);
    });
  }
  it('keeps the document CRS string and names the geographic CRS by URI', () => {
    assert.equal(getTileMatrixSet('LINZAntarticaMapTilegrid').crsString, 'urn:ogc:def:crs:EPSG::5482');
    assert.equal(crsUri(getTileMatrixSet('WorldCRS84Quad').geographicCrs), 'http://www.opengis.net/def/crs/OGC/0/CRS84');
  });
});

describe('tileBounds', () => {
  it('WebMercatorQuad 8/87/48 (spec §7.1)', () => {
    assert.deepEqual(
      getTileMatrixSet('WebMercatorQuad').tileBounds(87, 48, 8),
      [-6418264.391049679, 12366899.680315237, -6261721.357121639, 12523442.714243278],
    );
  });
  it('inverted-axis TMSs swap their stored origin into x/y order', () => {
    assert.deepEqual(getTileMatrixSet('WGS1984Quad').tileBounds(0, 0, 0), [-180, -90, 0, 90]);
    assert.deepEqual(getTileMatrixSet('WGS1984Quad').tileBounds(1, 0, 0), [0, -90, 180, 90]);
    assert.deepEqual(getTileMatrixSet('EuropeanETRS89_LAEAQuad').tileBounds(0, 0, 0), [2000000, 1000000, 6500000, 5500000]);
    const nz = getTileMatrixSet('NZTM2000Quad').tileBounds(0, 0, 0);
    assert.equal(nz[0], -3260586.7284);
    assert.equal(nz[3], 10438190.1652);
    assert.deepEqual(getTileMatrixSet('WorldCRS84Quad').tileBounds(1, 0, 0), [0, -90, 180, 90]);
  });
  it('variable matrix widths: GNOSIS coalesces the polar rows', () => {
    const g = getTileMatrixSet('GNOSISGlobalGrid');
    // z1: 8×4 tiles of 45°, rows 0 and 3 coalesce by 2 → 90°-wide tiles.
    assert.deepEqual(g.tileBounds(3, 0, 1), [-90, 45, 0, 90]);
    assert.deepEqual(g.tileBounds(2, 0, 1), [-90, 45, 0, 90]);
    assert.deepEqual(g.tileBounds(3, 1, 1), [-45, 0, 0, 45]);
    assert.deepEqual(g.tileAt(-10, 80, 1, true), { x: 2, y: 0, z: 1 });
    assert.deepEqual(g.tileAt(-10, 30, 1, true), { x: 3, y: 1, z: 1 });
  });
  it('variable matrix widths: CDB1 negative levels', () => {
    const c = getTileMatrixSet('CDB1GlobalGrid');
    assert.equal(c.matrix(-10).tileWidth, 1);
    assert.deepEqual(c.tileBounds(5, 0, -10), [-180, 89, -168, 90]); // row 0 coalesces 12
    assert.deepEqual(c.tileBounds(5, 90, -10), [-175, -1, -174, 0]); // equatorial rows do not
    assert.deepEqual(c.tileAt(-175.5, 89.5, -10, true), { x: 0, y: 0, z: -10 });
  });
  it('extrapolates WebMercatorQuad beyond z24', () => {
    const wmq = getTileMatrixSet('WebMercatorQuad');
    for (let z = 25; z <= 30; z++) {
      const m = wmq.matrix(z);
      assert.equal(m.id, String(z));
      assert.equal(m.matrixWidth, 2 ** z);
      assert.equal(m.matrixHeight, 2 ** z);
      assert.equal(m.tileWidth, 256);
      assert.ok(Math.abs(m.cellSize - 156543.03392804097 / 2 ** z) < 1e-15);
    }
    const b = wmq.tileBounds(2 ** 29, 2 ** 29, 30);
    assert.ok(Math.abs(b[0]) < 1e-6 && Math.abs(b[3]) < 1e-6);
  });
  it('refuses zooms it cannot build', () => {
    assert.throws(() => getTileMatrixSet('WebMercatorQuad').matrix(-1), badRequest);
    assert.throws(() => getTileMatrixSet('WebMercatorQuad').matrix(1.5), badRequest);
    assert.throws(() => getTileMatrixSet('UTM31WGS84Quad').matrix(0), badRequest);
    assert.throws(() => getTileMatrixSet('CDB1GlobalGrid').matrix(22), badRequest); // variable widths
    assert.throws(() => getTileMatrixSet('GNOSISGlobalGrid').matrix(29), badRequest);
    assert.throws(() => getTileMatrixSet('CanadianNAD83_LCC').matrix(26), badRequest); // variable scale
  });
});

describe('tileAt / zoomForResolution', () => {
  const wmq = getTileMatrixSet('WebMercatorQuad');
  it('finds the tile of a lon/lat and clamps outside points', () => {
    assert.deepEqual(wmq.tileAt(-57, 73.9, 8, true), { x: 87, y: 48, z: 8 }); // inside 8/87/48
    assert.deepEqual(wmq.tileAt(-57, 74.2, 8, true), { x: 87, y: 47, z: 8 });
    assert.deepEqual(wmq.tileAt(0, 90, 3, true), { x: 4, y: 0, z: 3 }); // pole → y clamped to 0
    assert.deepEqual(wmq.tileAt(200, -89, 3, true), { x: 0, y: 7, z: 3 }); // lon 200 wraps to -160 like PROJ
    assert.deepEqual(wmq.tileAt(-6418264.39, 12523442.71, 8), { x: 87, y: 48, z: 8 });
  });
  it('zoom for resolution: exact, nearest in log scale, clamped', () => {
    const cell = (z: number): number => wmq.matrix(z).cellSize;
    assert.equal(wmq.zoomForResolution(cell(10)), 10);
    assert.equal(wmq.zoomForResolution(cell(10) * 1.3), 10);
    assert.equal(wmq.zoomForResolution(cell(10) * 1.5), 9);
    assert.equal(wmq.zoomForResolution(1e9), 0);
    assert.equal(wmq.zoomForResolution(1e-9), 24);
    assert.equal(wmq.zoomForResolution(350.62199729744475), 9); // cog.tif in 3857
  });
});

describe('zoomRange / limits', () => {
  it('cog.tif (EPSG:32621) → WebMercatorQuad 5..9 with titiler’s limits', () => {
    const wmq = getTileMatrixSet('WebMercatorQuad');
    const crs = parseCrs('EPSG:32621');
    const bounds: [number, number, number, number] = [373185.0, 8019284.949381611, 639014.9492102272, 8286015.0];
    const gt: [number, number, number, number, number, number] = [bounds[0], (bounds[2] - bounds[0]) / 2658, 0, bounds[3], 0, -(bounds[3] - bounds[1]) / 2667];
    assert.deepEqual(wmq.zoomRange(crs, gt, 2658, 2667), { minzoom: 5, maxzoom: 9 });
    assert.deepEqual(getTileMatrixSet('WorldCRS84Quad').zoomRange(crs, gt, 2658, 2667), { minzoom: 5, maxzoom: 8 });
    const limits = wmq.limits([-61.28762442711404, 72.22979795551834, -52.301598718454485, 74.66298001264106], 5, 9);
    assert.equal(limits.length, 5);
    assert.deepEqual(limits[0], { tileMatrix: '5', minTileRow: 5, maxTileRow: 6, minTileCol: 10, maxTileCol: 11 });
    assert.deepEqual(limits[4], { tileMatrix: '9', minTileRow: 92, maxTileRow: 104, minTileCol: 168, maxTileCol: 181 });
  });
  it('falls back to the TMS zoom range for non-Earth CRSs', () => {
    const mars = parseCrs(
      'PROJCS["Equirectangular MARS",GEOGCS["GCS_MARS",DATUM["D_MARS",SPHEROID["MARS_localRadius",3395582.0270805,0]],PRIMEM["Reference_Meridian",0],UNIT["degree",0.0174532925199433]],PROJECTION["Equirectangular"],PARAMETER["standard_parallel_1",-10],PARAMETER["central_meridian",180],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1]]',
    );
    const gt: [number, number, number, number, number, number] = [7376380.5, 5, 0, -860015.5, 0, -5];
    assert.deepEqual(getTileMatrixSet('WebMercatorQuad').zoomRange(mars, gt, 1118, 1683), { minzoom: 0, maxzoom: 24 });
    assert.deepEqual(getTileMatrixSet('WorldCRS84Quad').zoomRange(mars, gt, 1118, 1683), { minzoom: 0, maxzoom: 23 });
  });
});

describe('toJSON', () => {
  for (const id of TMS_IDS) {
    it(`${id} serialises like morecantile`, () => {
      const doc = JSON.parse(readFileSync(new URL(`../../src/geo/tms-data/${id}.json`, import.meta.url), 'utf8')) as {
        crs: string;
        tileMatrices: Array<Record<string, unknown>>;
      };
      const json = getTileMatrixSet(id).toJSON() as { id: string; crs: string; tileMatrices: Array<Record<string, unknown>> };
      assert.equal(json.id, id);
      assert.equal(json.crs, doc.crs);
      const ids = json.tileMatrices.map((m) => Number(m['id']));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      assert.equal(json.tileMatrices.length, doc.tileMatrices.length);
      for (const m of json.tileMatrices) {
        assert.ok(m['cornerOfOrigin'] === 'topLeft');
        const src = doc.tileMatrices.find((d) => d['id'] === m['id'])!;
        for (const k of ['scaleDenominator', 'cellSize', 'pointOfOrigin', 'tileWidth', 'tileHeight', 'matrixWidth', 'matrixHeight', 'variableMatrixWidths']) {
          assert.deepEqual(m[k], src[k], `${m['id']}.${k}`);
        }
        assert.deepEqual(Object.keys(m).slice(0, 4), ['id', 'scaleDenominator', 'cellSize', 'cornerOfOrigin']);
      }
    });
  }
});
