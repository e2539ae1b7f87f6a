/**
 * The MosaicJSON quadkey index: Bing's quadkey example (tile 3,5 at z3 → "213"), cogeo-mosaic's
 * find_quadkeys in both directions (ancestor entry; descendants in morecantile's children order
 * TL, TR, BR, BL, whether enumerated or found by scanning the index), and the document validator.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateMosaicJson } from '../../src/mosaic/mosaicjson/document.ts';
import { quadkeyOf, quadkeysForTile, tileOfQuadkey } from '../../src/mosaic/mosaicjson/quadkey.ts';

describe('MosaicJSON quadkey index', () => {
  it('quadkeys round-trip (Bing Maps tile system example)', () => {
    assert.equal(quadkeyOf(3, 5, 3), '213');
    assert.deepEqual(tileOfQuadkey('213'), { x: 3, y: 5, z: 3 });
    assert.equal(quadkeyOf(0, 0, 0), '');
    for (const qk of ['0302300', '0302321', '3333', '1203']) {
      const t = tileOfQuadkey(qk);
      assert.equal(quadkeyOf(t.x, t.y, t.z), qk);
    }
  });

  it('a deeper tile uses its ancestor; a shallower one its descendants in children order', () => {
    const all = ['0', '1', '2', '3', '00', '01', '02', '03', '10', '11', '12', '13', '20', '21', '22', '23', '30', '31', '32', '33'];
    const level2 = all.filter((k) => k.length === 2);
    const has = (k: string) => level2.includes(k);
    // z3 tile (3,5) under quadkey "21" at z2
    assert.deepEqual(quadkeysForTile({ x: 3, y: 5, z: 3 }, 2, level2, has), ['21']);
    assert.deepEqual(quadkeysForTile({ x: 1, y: 1, z: 1 }, 1, level2, has), []);
    // z0 → 16 keys: TL, TR, BR, BL at each level; both strategies agree
    const expected = ['00', '01', '03', '02', '10', '11', '13', '12', '30', '31', '33', '32', '20', '21', '23', '22'];
    assert.deepEqual(quadkeysForTile({ x: 0, y: 0, z: 0 }, 2, level2, has), expected); // enumerated (16 ≤ 16 keys)
    assert.deepEqual(
      quadkeysForTile({ x: 0, y: 0, z: 0 }, 2, level2.slice(0, 15), (k) => level2.slice(0, 15).includes(k)),
      expected.filter((k) => k !== '33'),
    );
    const sparse = ['33', '00', '21'];
    assert.deepEqual(
      quadkeysForTile({ x: 0, y: 0, z: 0 }, 2, sparse, (k) => sparse.includes(k)),
      ['00', '33', '21'],
    ); // scanned
  });

  it('validates documents like the pydantic model', () => {
    const ok = validateMosaicJson({ mosaicjson: '0.0.3', tiles: { '0': ['a.tif'] }, bounds: [0, 0, 10, 10], minzoom: 2 });
    assert.ok('doc' in ok);
    assert.deepEqual([ok.doc.center, ok.doc.maxzoom, ok.doc.version], [[5, 5, 2], 30, '1.0.0']);
    const bad = validateMosaicJson({ mosaicjson: 3, tiles: { '4': 'a' }, minzoom: -1, bounds: [0, 0] });
    assert.ok('issues' in bad);
    assert.deepEqual(
      bad.issues.map((i) => [i.type, i.loc.join('.')]),
      [
        ['string_type', 'mosaicjson'],
        ['greater_than_equal', 'minzoom'],
        ['tuple_type', 'bounds'],
        ['value_error', 'tiles.4.[key]'],
        ['list_type', 'tiles.4'],
      ],
    );
    assert.ok('issues' in validateMosaicJson([]));
  });
});
