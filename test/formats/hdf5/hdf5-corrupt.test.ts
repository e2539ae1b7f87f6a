/**
 * Truncated and corrupted HDF5 files: every failure is a RastileError of a 4xx kind with a
 * message (never a RangeError, TypeError, hang or huge allocation); the process stays alive.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { openHdf5 } from '../../../src/formats/hdf5/open-hdf5.ts';
import type { Source } from '../../../src/sources/source.ts';
import { allVariables } from './read-all.ts';

const DIR = path.join(import.meta.dirname, '..', '..', 'fixtures', 'hdf5');
const CLIENT_KINDS = new Set(['InvalidFormat', 'UnsupportedFeature', 'BadRequest']);

function memorySource(bytes: Uint8Array, name: string): Source {
  return {
    url: name,
    size: bytes.length,
    fetch: (offset, length) => Promise.resolve(bytes.slice(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length))),
  };
}

/** Open and read every chunk of every numeric variable; resolves with the error, if any. */
async function exercise(bytes: Uint8Array, name: string): Promise<unknown> {
  try {
    const f = await openHdf5(memorySource(bytes, name));
    for (const v of allVariables(f).values()) {
      if (v.dtype === 'string' || v.dtype === 'other') continue;
      const grid = v.shape.map((s, i) => Math.ceil(s / v.chunkShape[i]));
      if (grid.some((g) => g === 0)) continue;
      await v.readChunk(grid.map(() => 0));
      await v.readChunk(grid.map((g) => g - 1));
    }
    return null;
  } catch (err) {
    return err;
  }
}

function assertClientError(err: unknown, what: string): void {
  if (err === null) return;
  assert.ok(isRastileError(err) && CLIENT_KINDS.has(err.kind) && err.message.length > 0, `${what}: ${String(err)}\n${(err as Error).stack}`);
}

/** A seeded PRNG (mulberry32), so failures reproduce. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

for (const name of ['earliest.h5', 'latest.h5', 'netcdf4.nc']) {
  const bytes = new Uint8Array(readFileSync(path.join(DIR, name)));
  describe(`corrupt ${name}`, () => {
    it('is refused clearly when truncated anywhere', async () => {
      for (const cut of [0, 7, 50, 100, 500, 1000, 2048, 4096, 8192, 12000, 16384, bytes.length >> 1, bytes.length - 100, bytes.length - 1]) {
        const err = await exercise(bytes.subarray(0, cut), `${name}[:${cut}]`);
        assertClientError(err, `${name} cut at ${cut}`);
        if (cut < 2048) assert.notEqual(err, null, `${name} cut at ${cut} opens`);
      }
    });

    it('is refused clearly (or read) when bytes are overwritten', async () => {
      const rand = prng(name.length * 7919);
      for (let round = 0; round < 80; round++) {
        const copy = bytes.slice();
        const n = 1 + Math.floor(rand() * 8);
        // mostly the metadata at the front, sometimes anywhere
        const span = rand() < 0.7 ? Math.min(copy.length, 4096) : copy.length;
        for (let k = 0; k < n; k++) copy[Math.floor(rand() * span)] = Math.floor(rand() * 256);
        assertClientError(await exercise(copy, `${name} round ${round}`), `${name} round ${round}`);
      }
    });
  });
}
