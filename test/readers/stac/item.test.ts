import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { getTileMatrixSet } from '../../../src/geo/tms.ts';
import { parseAssetRequest, type AssetRequest } from '../../../src/readers/stac/asset-request.ts';
import { parseStacItem } from '../../../src/readers/stac/item.ts';
import { selectAssets } from '../../../src/readers/stac/select-assets.ts';
import { StacReader } from '../../../src/readers/stac/stac-reader.ts';
import { fixture } from '../../helpers/test-server.ts';

const load = (name: string) => parseStacItem(readFileSync(fixture('stac', name), 'utf8'), fixture('stac', name));
const expected = JSON.parse(readFileSync(fixture('stac', 'expected.json'), 'utf8')) as {
  bbox: number[];
  assets: Record<string, { info: { bounds: number[] } }>;
};
const req = (v: string) => parseAssetRequest(v) as AssetRequest;
const noOpen = () => Promise.reject(new Error('not used'));

describe('STAC item parsing', () => {
  it('raster assets only, in item order, hrefs resolved against the item', () => {
    const item = load('item.json');
    assert.deepEqual([...item.assets.keys()], ['red', 'green', 'nir', 'swir', 'visual']);
    assert.equal(item.assets.get('red')!.href, fixture('stac', 'red.tif'));
    const noproj = load('items/item-noproj.json');
    assert.equal(noproj.assets.get('swir')!.href, fixture('stac', 'swir.tif'));
    assert.equal(load('item-props-proj.json').assets.get('nir')!.href, fixture('stac', 'nir.tif'));
  });

  it('band metadata and raster:bands statistics', () => {
    const item = load('item.json');
    assert.deepEqual(
      item.assets.get('visual')!.bands.map((b) => b.commonName),
      ['red', 'green', 'blue'],
    );
    assert.deepEqual(item.assets.get('nir')!.statistics, [[500, 5500]]);
    assert.equal(item.assets.get('red')!.statistics, undefined);
    assert.deepEqual(Object.keys(item.renders), ['ndvi']);
  });

  it('spatial extent: asset-level proj, item-level proj, bbox', () => {
    const a = load('item.json').spatial;
    assert.equal(a.crs.epsg, 32633);
    assert.deepEqual(a.bounds, expected.assets['red'].info.bounds);
    assert.equal(a.grid!.width, 192); // finest grid (20 m), not swir's 40 m
    const b = load('item-props-proj.json').spatial;
    assert.equal(b.crs.epsg, 32633);
    assert.deepEqual(b.bounds, expected.assets['red'].info.bounds);
    const c = load('items/item-noproj.json').spatial;
    assert.equal(c.crs.epsg, 4326);
    assert.deepEqual(c.bounds, expected.bbox);
    assert.equal(c.grid, undefined);
  });

  it('zooms: from the proj grid (same as the finest asset), else the TMS range', () => {
    const wmq = getTileMatrixSet('WebMercatorQuad');
    const withProj = new StacReader(load('item.json'), [], noOpen);
    const g = load('item.json').spatial.grid!;
    assert.deepEqual(withProj.zoomRange(wmq), wmq.zoomRange(load('item.json').spatial.crs, g.geoTransform, g.width, g.height));
    const noProj = new StacReader(load('items/item-noproj.json'), [], noOpen);
    assert.deepEqual(noProj.zoomRange(wmq), { minzoom: 0, maxzoom: 24 });
  });

  it('tile existence from the item extent', () => {
    const r = new StacReader(load('items/item-noproj.json'), [], noOpen);
    const wmq = getTileMatrixSet('WebMercatorQuad');
    assert.equal(r.tileExists(wmq, 8875, 5826, 14), true);
    assert.equal(r.tileExists(wmq, 0, 0, 14), false);
    assert.equal(r.tileExists(wmq, 0, 0, 0), true);
  });

  it('antimeridian bbox (west > east)', () => {
    const doc = { type: 'Feature', bbox: [170, -10, -170, 10], assets: { a: { href: 'a.tif' } } };
    const item = parseStacItem(JSON.stringify(doc), '/x/item.json');
    const r = new StacReader(item, [], noOpen);
    const wmq = getTileMatrixSet('WebMercatorQuad');
    assert.equal(r.tileExists(wmq, 0, 1, 2), true); // west edge tile (-180..-90)
    assert.equal(r.tileExists(wmq, 3, 1, 2), true); // east edge tile (90..180)
    assert.equal(r.tileExists(wmq, 1, 1, 2), false);
  });

  it('bbox from the geometry when missing; 3D bbox', () => {
    const geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [1, 2],
          [3, 2],
          [3, 4],
          [1, 4],
          [1, 2],
        ],
      ],
    };
    assert.deepEqual(parseStacItem(JSON.stringify({ geometry, assets: { a: { href: 'a.tif' } } }), '/i.json').bbox, [1, 2, 3, 4]);
    assert.deepEqual(parseStacItem(JSON.stringify({ bbox: [1, 2, 0, 3, 4, 9], assets: { a: { href: 'a.tif' } } }), '/i.json').bbox, [1, 2, 3, 4]);
  });

  it('errors: not JSON, not an item, no raster asset, no extent', () => {
    const kind = (text: string) => {
      try {
        parseStacItem(text, '/i.json');
      } catch (err) {
        return isRastileError(err) ? err.kind : 'other';
      }
      return 'none';
    };
    assert.equal(kind('{nope'), 'InvalidFormat');
    assert.equal(kind('[]'), 'InvalidFormat');
    assert.equal(kind('{"type":"Feature"}'), 'InvalidFormat');
    assert.equal(kind(JSON.stringify({ bbox: [0, 0, 1, 1], assets: { t: { href: 't.png', type: 'image/png' } } })), 'MissingAssets');
    assert.equal(kind(JSON.stringify({ assets: { a: { href: 'a.tif' } } })), 'InvalidFormat');
  });
});

describe('asset selection', () => {
  const item = load('item.json');

  it('names, options, :all: only where allowed', () => {
    const s = selectAssets(item, [req('red'), req('swir|bidx=1,1')], { allowAll: false });
    assert.deepEqual(
      s.map((a) => [a.key, a.asset.name, a.layer.indexes]),
      [
        ['red', 'red', undefined],
        ['swir|indexes=[1,1]', 'swir', [1, 1]],
      ],
    );
    assert.deepEqual(
      selectAssets(item, [req(':all:')], { allowAll: true }).map((a) => a.key),
      ['red', 'green', 'nir', 'swir', 'visual'],
    );
    assert.throws(
      () => selectAssets(item, [req(':all:')], { allowAll: false }),
      (e: unknown) => isRastileError(e, 'InvalidAssetName'),
    );
  });

  it('unknown asset → InvalidAssetName listing the valid names (Python list repr)', () => {
    assert.throws(
      () => selectAssets(item, [req('B1111')], { allowAll: true }),
      (e: unknown) => isRastileError(e, 'InvalidAssetName') && e.message === "'B1111' is not valid, should be one of ['red', 'green', 'nir', 'swir', 'visual']",
    );
  });

  it('bands= through the STAC band metadata', () => {
    assert.deepEqual(selectAssets(item, [req('visual|bands=blue,red')], { allowAll: false })[0].layer.indexes, [3, 1]);
    assert.throws(
      () => selectAssets(item, [req('visual|bands=nir')], { allowAll: false }),
      (e: unknown) => isRastileError(e, 'BadRequest') && /Band 'nir' not found/.test(e.message),
    );
    assert.throws(
      () => selectAssets(item, [req('red|bands=red')], { allowAll: false }),
      (e: unknown) => isRastileError(e, 'BadRequest') && /no 'bands' metadata/.test(e.message),
    );
  });

  it('per-asset expression compiles (or fails) up front', () => {
    assert.deepEqual(selectAssets(item, [req('red|expression=b1*2')], { allowAll: false })[0].layer.expression!.blocks, ['b1*2']);
    assert.throws(
      () => selectAssets(item, [req('red|expression=foo')], { allowAll: false }),
      (e: unknown) => isRastileError(e, 'InvalidExpression'),
    );
  });
});
