/**
 * The start-up warm-up (src/http/warmup.ts) renders its built-in NetCDF-4 without an error, and
 * the built-in file is what its generator (scripts/fixtures/warmup_netcdf.py) describes, read
 * with our HDF5 reader: int16 `sst` (1 × 32 × 64) packed with scale/offset and a _FillValue.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { configFromEnv } from '../../src/cli/config-from-env.ts';
import { warmupNetcdf } from '../../src/formats/array/warmup-netcdf.ts';
import { openHdf5 } from '../../src/formats/hdf5/open-hdf5.ts';
import { seedBufferPool, warmChunkStream, warmUp } from '../../src/http/warmup.ts';
import { BUFFER_POOL } from '../../src/util/buffer-pool.ts';
import { FAULTED_RESERVE } from '../../src/util/faulted-reserve.ts';

it('the warm-up renders its tile and fetches from its own listener', async () => {
  assert.equal(await warmUp(configFromEnv({}, {})), null);
});

it('the built-in file holds the variable the warm-up reads', async () => {
  const bytes = warmupNetcdf();
  const file = await openHdf5({ url: 'memory:warmup.nc', size: bytes.length, fetch: (o, l) => Promise.resolve(bytes.slice(o, o + l)) });
  const sst = file.root.variables.get('sst');
  assert.ok(sst);
  assert.deepEqual([...sst.shape], [1, 32, 64]);
  assert.deepEqual(sst.dims, ['time', 'lat', 'lon']);
  assert.equal(sst.attrs['scale_factor'], 0.01);
  assert.equal(sst.attrs['_FillValue'], -32768);
});

it('seedBufferPool leaves a 2 MiB and a 4 MiB buffer in the pool, each with its first half written', () => {
  seedBufferPool();
  const before = BUFFER_POOL.allocations;
  const small = BUFFER_POOL.bytes(1.5 * 1024 * 1024);
  const large = BUFFER_POOL.bytes(3 * 1024 * 1024);
  try {
    assert.equal(BUFFER_POOL.allocations, before, 'both served by kept buffers');
    assert.deepEqual([small.buffer.byteLength, large.buffer.byteLength], [2 * 1024 * 1024, 4 * 1024 * 1024]);
    for (const b of [small, large]) {
      const whole = new Uint8Array(b.buffer);
      assert.equal(whole[0], 1);
      assert.equal(whole[(whole.length >> 1) - 1], 1);
    }
  } finally {
    BUFFER_POOL.release(small.buffer, large.buffer);
  }
});

it('warmChunkStream decodes its chunks without touching the faulted reserve', () => {
  const slab = FAULTED_RESERVE.slabBytes;
  const made = FAULTED_RESERVE.buffersMade;
  const ready = FAULTED_RESERVE.bytesReady;
  warmChunkStream(); // throws when a chunk decodes wrong
  assert.deepEqual([FAULTED_RESERVE.slabBytes, FAULTED_RESERVE.buffersMade, FAULTED_RESERVE.bytesReady], [slab, made, ready]);
});
