import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { BUFFER_POOL } from '../../src/util/buffer-pool.ts';
import { isReturnableBody, keepBody, pooledBody, returnBodyAfter } from '../../src/util/pooled-body.ts';

const KiB = 1024;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('pooled response bodies', () => {
  it('a large body is an exact-length view of a pooled buffer, given back once its response finished', async () => {
    const body = pooledBody(524416); // a 2 × 256 × 256 float32 .npy
    assert.equal(body.length, 524416);
    assert.equal(body.byteOffset, 0);
    assert.equal(body.buffer.byteLength, 1024 * KiB, 'its power-of-two size class');
    assert.ok(BUFFER_POOL.owns(body.buffer) && isReturnableBody(body));
    const response = new EventEmitter();
    returnBodyAfter(response, body);
    await turn();
    assert.ok(BUFFER_POOL.owns(body.buffer), 'not back before the response is written out');
    response.emit('finish');
    assert.ok(!isReturnableBody(body));
    await turn();
    const next = pooledBody(600 * KiB);
    assert.equal(next.buffer, body.buffer, 'the next body of its class reuses it');
    response.emit('finish'); // the listener ran once: nothing is given back twice
    await turn();
    assert.ok(BUFFER_POOL.owns(next.buffer));
  });

  it('a kept body is an exact-size copy of its own, and the pooled one goes back at once', async () => {
    const body = pooledBody(300 * KiB);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7) & 255;
    const kept = keepBody(body);
    assert.notEqual(kept.buffer, body.buffer);
    assert.equal(kept.length, 300 * KiB);
    assert.equal(kept.buffer.byteLength, 300 * KiB, 'what the cache counts is what it holds');
    assert.ok(kept.equals(body));
    assert.ok(!isReturnableBody(body) && !isReturnableBody(kept));
    await turn();
    assert.ok(!BUFFER_POOL.owns(body.buffer), 'back in the pool');
    const again = pooledBody(300 * KiB);
    assert.equal(again.buffer, body.buffer);
    again.fill(0);
    assert.equal(kept[1], 7, "the kept copy does not see the buffer's next use");
    assert.equal(keepBody(kept), kept, 'a body of its own is kept as it is');
  });

  it('small bodies and bodies of other origins are never given back', async () => {
    const small = pooledBody(1000);
    assert.equal(small.length, 1000);
    assert.ok(!isReturnableBody(small));
    const foreign = Buffer.alloc(200 * KiB);
    const response = new EventEmitter();
    returnBodyAfter(response, small);
    returnBodyAfter(response, foreign);
    returnBodyAfter(response, 'text');
    assert.equal(response.listenerCount('finish'), 0);
  });
});
