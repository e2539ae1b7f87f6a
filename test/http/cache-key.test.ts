/** Response-cache keys (src/http/response-cache/cache-key.ts): canonical parameters, key parts, If-None-Match. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonical, etagOf, ifNoneMatchHits, requestKey, responseKey } from '../../src/http/response-cache/cache-key.ts';
import { ReadSet } from '../../src/util/read-set.ts';

const parts = { method: 'GET', route: '/cog/tiles/{z}', params: 'p', vary: [] as string[], body: '' };

describe('canonical parameter text', () => {
  it('sorts object keys and spells out Maps, Sets and typed arrays', () => {
    assert.equal(canonical({ b: 1, a: [1, 'x', null, undefined, true] }), canonical({ a: [1, 'x', null, undefined, true], b: 1 }));
    assert.notEqual(canonical(new Map([[1, [255, 0, 0, 255]]])), canonical(new Map([[1, [0, 0, 0, 255]]])));
    assert.notEqual(canonical(new Float32Array([1, 2])), canonical(new Float64Array([1, 2])));
    assert.notEqual(canonical([1, 2]), canonical(['1', '2']));
    assert.notEqual(canonical(0), canonical(-0));
    assert.notEqual(canonical(NaN), canonical(null));
  });

  it('gives up (undefined) on what it cannot spell faithfully, so the caller keys on the URL', () => {
    assert.equal(canonical({ f: () => 1 }), undefined);
    assert.equal(canonical([new (class Compiled {})()]), undefined);
    assert.equal(canonical(new DataView(new ArrayBuffer(2))), undefined);
  });
});

describe('keys and validators', () => {
  it('every part of the request key counts; the response key adds versions and the base URL', () => {
    const k = requestKey(parts);
    for (const changed of [{ method: 'POST' }, { route: '/x' }, { params: 'q' }, { vary: ['text/html'] }, { body: '{}' }]) {
      assert.notEqual(requestKey({ ...parts, ...changed }), k);
    }
    const v1 = [{ kind: 'grid', location: '/a.tif', version: 'f:1' }];
    const v2 = [{ kind: 'grid', location: '/a.tif', version: 'f:2' }];
    assert.notEqual(responseKey(k, v1, undefined), responseKey(k, v2, undefined));
    assert.notEqual(responseKey(k, v1, 'http://a'), responseKey(k, v1, 'http://b'));
    assert.equal(responseKey(k, v1, undefined), responseKey(k, [...v1], undefined));
  });

  it('If-None-Match: lists, weak forms and * match; others do not', () => {
    const e = etagOf('abc');
    assert.equal(ifNoneMatchHits(`"x", ${e}`, e), true);
    assert.equal(ifNoneMatchHits(`W/${e}`, e), true);
    assert.equal(ifNoneMatchHits('*', e), true);
    assert.equal(ifNoneMatchHits('"abd"', e), false);
    assert.equal(ifNoneMatchHits(undefined, e), false);
  });

  it('a read set refuses unique versions and a location seen at two versions', () => {
    const s = new ReadSet();
    s.record('grid', '/a.tif', 'f:1|.ovr=f:2');
    assert.equal(s.uncacheable, undefined);
    s.record('grid', '/b.tif', 'f:3~7');
    assert.match(s.uncacheable ?? '', /no stable version/);
    const t = new ReadSet();
    t.record('grid', '/a.tif', 'f:1');
    t.record('grid', '/a.tif', 'f:2');
    assert.match(t.uncacheable ?? '', /changed while/);
    assert.deepEqual(
      t.deps().map((d) => d.location),
      ['/a.tif'],
    );
  });
});
