import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, inflateSync, constants } from 'node:zlib';
import { deflateInto, DeflateStream, inflateInto, inflateIntoOffThread, ZlibDataError, zlibFastPath } from '../../src/util/zlib-handle.ts';

const data = Uint8Array.from({ length: 200_000 }, (_, i) => ((i * 7919) % 251) ^ (i >> 9));
const settings = { level: 1, memLevel: 9, strategy: constants.Z_DEFAULT_STRATEGY };

describe('reused zlib handles', () => {
  it('inflate fills the output exactly, ignores what follows and reports short streams', () => {
    const z = deflateSync(data);
    const out = new Uint8Array(data.length);
    assert.equal(inflateInto(z, out), data.length);
    assert.deepEqual(out, data);
    const head = new Uint8Array(1000);
    assert.equal(inflateInto(z, head), 1000);
    assert.deepEqual(head, data.subarray(0, 1000));
    const cut = z.subarray(0, z.length >> 1);
    const n = inflateInto(cut, new Uint8Array(data.length));
    assert.ok(n > 0 && n < data.length, `short stream gave ${n}`);
  });

  it('corrupt data throws, and the next call works on a fresh handle', () => {
    const bad = Uint8Array.from(deflateSync(data));
    bad[10] ^= 0xff;
    bad[11] ^= 0x55;
    assert.throws(() => inflateInto(bad, new Uint8Array(data.length)), ZlibDataError);
    assert.throws(() => inflateInto(Uint8Array.of(1, 2, 3, 4), new Uint8Array(10)), ZlibDataError);
    const out = new Uint8Array(data.length);
    assert.equal(inflateInto(deflateSync(data), out), data.length);
    assert.deepEqual(out, data);
  });

  it('inflate on the thread pool: node zlib bytes, short streams as the sync path, corrupt data rejected, handles reused', async () => {
    const z = deflateSync(data);
    const outs = Array.from({ length: 7 }, () => new Uint8Array(data.length));
    assert.deepEqual(
      await Promise.all(outs.map((o) => inflateIntoOffThread(z, o))),
      outs.map(() => data.length),
    );
    for (const o of outs) assert.deepEqual(o, new Uint8Array(inflateSync(z)));
    const head = new Uint8Array(1000);
    assert.equal(await inflateIntoOffThread(z, head), 1000);
    assert.deepEqual(head, data.subarray(0, 1000));
    const cut = z.subarray(0, z.length >> 1);
    assert.equal(await inflateIntoOffThread(cut, new Uint8Array(data.length)), inflateInto(cut, new Uint8Array(data.length)));
    const bad = Uint8Array.from(z);
    bad[10] ^= 0xff;
    bad[11] ^= 0x55;
    await assert.rejects(inflateIntoOffThread(bad, new Uint8Array(data.length)), ZlibDataError);
    await assert.rejects(inflateIntoOffThread(Uint8Array.of(1, 2, 3, 4), new Uint8Array(10)), ZlibDataError);
    const out = new Uint8Array(data.length);
    assert.equal(await inflateIntoOffThread(z, out), data.length);
    assert.deepEqual(out, data);
  });

  it('deflate output inflates back, also when the scratch must grow, and repeats identically', () => {
    const big = deflateInto(data, settings, new Uint8Array(data.length + 1024));
    assert.deepEqual(new Uint8Array(inflateSync(big)), data);
    const grown = deflateInto(data, settings, new Uint8Array(16));
    assert.deepEqual(grown, big);
    assert.deepEqual(deflateInto(data, settings, new Uint8Array(data.length + 1024)), big);
    const level6 = deflateInto(data, { ...settings, level: 6 }, new Uint8Array(data.length + 1024));
    assert.deepEqual(new Uint8Array(inflateSync(level6)), data);
    assert.deepEqual(new Uint8Array(deflateSync(data, settings)), new Uint8Array(big));
  });

  it('a stream fed in pieces (reused between writes) inflates back to the whole, in chunks, on a native handle', () => {
    for (const settings of [
      { level: 1, memLevel: 9, strategy: constants.Z_RLE },
      { level: 6, memLevel: 9, strategy: constants.Z_FILTERED },
    ]) {
      let x = 1;
      const big = Uint8Array.from({ length: 3_000_000 }, (_, i) => {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        return (x >>> 24) & (i % 3 ? 0xff : 0x0f); // random, a third of it compressible
      });
      const stream = new DeflateStream(settings);
      const piece = new Uint8Array(65_537);
      for (let at = 0; at < big.length; at += piece.length) {
        const part = big.subarray(at, at + piece.length);
        piece.set(part);
        stream.write(piece.subarray(0, part.length));
        piece.fill(0xaa); // the stream must not read a piece after write()
      }
      const chunks = stream.finish();
      stream.close();
      assert.ok(chunks.length > 1, 'output in several chunks');
      assert.equal(Buffer.compare(inflateSync(Buffer.concat(chunks)), big), 0);
      assert.equal(
        zlibFastPath()[`stream:deflate:${settings.level}:${settings.memLevel}:${settings.strategy}`],
        true,
        `DeflateStream fell back on node ${process.versions.node}`,
      );
    }
  });

  it('two streams of one configuration written in turn (as across awaits) each hold their own handle', () => {
    const s = { level: 6, memLevel: 9, strategy: constants.Z_FILTERED };
    const a = new DeflateStream(s);
    const b = new DeflateStream(s);
    const other = data.map((v) => 255 - v);
    for (let at = 0; at < data.length; at += 10_000) {
      a.write(data.subarray(at, at + 10_000));
      b.write(other.subarray(at, at + 10_000));
    }
    assert.equal(Buffer.compare(inflateSync(Buffer.concat(a.finish())), data), 0);
    assert.equal(Buffer.compare(inflateSync(Buffer.concat(b.finish())), other), 0);
    a.close();
    b.close();
  });

  it(`runs on reused native handles, not the fallback, on node ${process.versions.node}`, () => {
    // Exercise both directions, then ask which path each configuration took.
    assert.equal(inflateInto(deflateSync(data), new Uint8Array(data.length)), data.length);
    deflateInto(data, settings, new Uint8Array(16));
    const state = zlibFastPath();
    assert.equal(state['inflate'], true, `inflate fell back to zlib.inflateSync on node ${process.versions.node}: _handle.writeSync changed`);
    const deflateKey = `deflate:${settings.level}:${settings.memLevel}:${settings.strategy}`;
    assert.equal(state[deflateKey], true, `deflate fell back to zlib.deflateSync on node ${process.versions.node}: _handle.writeSync changed`);
    assert.equal(
      state['inflate:thread-pool'],
      true,
      `the thread-pool inflate fell back to the sync path on node ${process.versions.node}: the native handle's init/write changed`,
    );
  });
});
