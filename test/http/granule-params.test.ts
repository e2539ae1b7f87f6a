/**
 * /raster layer parameters without a server: the 0.x expression translation (the cases of
 * titiler-cmr's test_dependencies.py, §10), the default asset, and the search-bounds rules and
 * cache of info/tilejson (titiler-cmr §4.6).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RastileError } from '../../src/errors.ts';
import { granuleLayer } from '../../src/http/factories/granule-raster-params.ts';
import { translateLegacyExpression } from '../../src/granule/legacy-expression.ts';
import { SearchBounds } from '../../src/granule/search-bounds.ts';
import type { Granule, GranuleQuery } from '../../src/search/types.ts';

describe('0.x expression translation', () => {
  const cases: Array<{ expr: string; assets?: string[]; want: string; wantAssets?: string[] }> = [
    { expr: '(NIR-RED)/(NIR+RED+BLUE)', want: '(b1-b2)/(b1+b2+b3)', wantAssets: ['NIR', 'RED', 'BLUE'] },
    { expr: 'B4 * B4_mask', want: 'b1 * b2', wantAssets: ['B4', 'B4_mask'] },
    { expr: 'sqrt(NIR)/log(RED)', want: 'sqrt(b1)/log(b2)', wantAssets: ['NIR', 'RED'] },
    { expr: 'B04-B05', assets: ['B03', 'B04', 'B05'], want: 'b2-b3' },
    { expr: '(blue-red)/(blue+red)', want: '(b1-b2)/(b1+b2)', wantAssets: ['blue', 'red'] },
    { expr: '(B04-B05)/(B04+B05)', assets: ['B05', 'B04'], want: '(b2-b1)/(b2+b1)' },
    { expr: 'B11/B12', want: 'b1/b2', wantAssets: ['B11', 'B12'] },
    { expr: '(b2-b1)/(b2+b1)', want: '(b2-b1)/(b2+b1)' },
    { expr: 'b1*2;b2', assets: ['B04', 'B03'], want: 'b1*2;b2' },
    { expr: 'temperature/pressure', want: 'b1/b2', wantAssets: ['temperature', 'pressure'] },
    { expr: 'where(B04 > 0, B04 * 1e3, 0)', want: 'where(b1 > 0, b1 * 1e3, 0)', wantAssets: ['B04'] },
    { expr: 'B11 + b11', assets: ['B11'], want: 'b1 + b11' },
  ];
  for (const c of cases) {
    it(`${c.expr}${c.assets ? ` with assets ${c.assets.join(',')}` : ''}`, () => {
      const r = translateLegacyExpression(c.expr, c.assets);
      assert.equal(r.expression, c.want, 'expression');
      assert.deepEqual(r.assets, c.wantAssets, 'assets');
    });
  }

  it('granuleLayer: default asset "0", assets chosen by a legacy expression', () => {
    const plain = granuleLayer({ asset_as_band: false });
    assert.deepEqual(
      plain.layer.assets.map((a) => a.name),
      ['0'],
      'default',
    );
    const legacy = granuleLayer({ asset_as_band: true, expression: '(B05-B04)/(B05+B04)', assets_regex: /B0[0-9]/ });
    assert.deepEqual(
      legacy.layer.assets.map((a) => a.name),
      ['B05', 'B04'],
      'from the expression',
    );
    assert.deepEqual(legacy.layer.expression?.bandIndexes, [1, 2], 'compiled over b1, b2');
    assert.equal(legacy.assetsRegex?.source, 'B0[0-9]', 'regex');
    const alias = granuleLayer({ asset_as_band: false, bands_regex: /Fmask/ });
    assert.equal(alias.assetsRegex?.source, 'Fmask', 'bands_regex alias');
  });
});

describe('search bounds (info, TileJSON, tile sets)', () => {
  const base: GranuleQuery = { itemsLimit: 100, exitWhenFull: true, skipCovered: false, coverageTolerance: 0.01 };
  const granule = (bbox: Granule['bbox']): Granule => ({
    id: 'G1',
    granuleUr: 'UR1',
    collectionConceptId: 'C1',
    temporal: { start: null, end: null },
    footprint: null,
    bbox,
    cloudCover: null,
    umm: {},
    meta: {},
  });

  it('the world, or bounding_box, without a search', async () => {
    let searches = 0;
    const b = new SearchBounds(async function* () {
      searches++;
      yield* []; // a search that finds nothing
    });
    assert.deepEqual(await b.bounds(base), [-180, -90, 180, 90], 'world');
    assert.deepEqual(await b.bounds({ ...base, boundingBox: [1, 2, 3, 4] }), [1, 2, 3, 4], 'bounding_box');
    assert.equal(searches, 0, 'no search');
  });

  it("granule_ur: the granule's envelope, one search per few minutes; none → NoData", async () => {
    let now = 0;
    const queries: GranuleQuery[] = [];
    const b = new SearchBounds(
      async function* (q) {
        queries.push(q);
        if (q.granuleUr === 'UR1') yield granule([10, 20, 11, 21]);
      },
      60_000,
      8,
      () => now,
    );
    assert.deepEqual(await b.bounds({ ...base, granuleUr: 'UR1' }), [10, 20, 11, 21], 'envelope');
    assert.deepEqual(await b.bounds({ ...base, granuleUr: 'UR1' }), [10, 20, 11, 21], 'cached');
    assert.equal(queries.length, 1, 'one search');
    assert.equal(queries[0].itemsLimit, 1, 'asks for one granule');
    now = 61_000;
    await b.bounds({ ...base, granuleUr: 'UR1' });
    assert.equal(queries.length, 2, 'expired');
    await assert.rejects(b.bounds({ ...base, granuleUr: 'NOPE' }), (e: unknown) => e instanceof RastileError && e.kind === 'NoData', 'not found');
  });
});
