/**
 * Start-up warm-up of the array tile path (issue 10, cold first tile): before the server listens,
 * send one request with the HTTP client (fetch) to a loopback listener of its own, then render two
 * `.npy` tiles of a tiny built-in NetCDF-4 (formats/array/warmup-netcdf.ts) served over loopback
 * HTTP, through the same code as a /zarr tile — the source stack, HDF5 open, CF decoding, streamed
 * chunk inflate + unshuffle, coordinate axes, the native grid (suggestedWarpOutput), proj4, the warp
 * and the encoder. The first real request then runs compiled code with warm inline caches instead
 * of paying for lazy compilation, the HTTP client's set-up and its parser's WebAssembly compile.
 * Nothing of it is kept: services of its own (sources, caches), no state in the app's caches.
 *
 * RASTILE_WARMUP=0 skips it (see serve.ts).
 */
import type { Config } from '../config.ts';
import { deflateSync } from 'node:zlib';
import { detachOneArrayBuffer } from '../util/detach-protector.ts';
import { decodeRun } from '../formats/array/decode-run.ts';
import { outputAxis } from '../formats/array/spatial-axes.ts';
import { StreamedChunk } from '../formats/hdf5/chunk-stream.ts';
import { warmupNetcdf } from '../formats/array/warmup-netcdf.ts';
import type { GeoTransform } from '../geo/affine.ts';
import { WGS84 } from '../geo/crs.ts';
import { suggestedWarpOutput } from '../geo/suggested-warp.ts';
import { getTileMatrixSet } from '../geo/tms.ts';
import { BUFFER_POOL } from '../util/buffer-pool.ts';
import { FAULTED_RESERVE } from '../util/faulted-reserve.ts';
import { releaseImage } from '../raster/image-data.ts';
import type { ManagedSourceOpener } from '../sources/open-source.ts';
import { bindLayer } from '../readers/image-reader.ts';
import { layerFromParams } from '../readers/layer.ts';
import { imageResponse } from './factories/image-output.ts';
import { createServices } from './services.ts';
import { startWarmupRangeServer } from './warmup-range-server.ts';

/**
 * The tiles the warm-up renders (WebMercatorQuad z/x/y, the reprojecting path), each of the file
 * under another name (a new dataset: opened, its grid and native grid computed, as a new granule's
 * first tile is). The first compiles; the next run the hot loops again with the same feedback.
 */
const WARMUP_TILES: ReadonlyArray<readonly [number, number, number]> = [
  [0, 0, 0],
  [1, 0, 0],
];

/**
 * `.npy` tiles of the built-in file read over loopback HTTP by services of the warm-up's own (the
 * server's configuration with private hosts allowed and small caches: nothing lands in the app's
 * caches), through the same code as a /zarr tile request's: the source stack (range requests,
 * streamed chunk bodies), HDF5, the grid, the reader, the warp, the encoder. Reading a file from
 * memory instead left objects of other shapes in that code (a plain source object, no abort
 * signal), so V8's optimised code for the window decode was thrown away by the first real tile
 * ("code dependencies") and compiled again during it.
 */
async function warmArrayTiles(config: Config): Promise<void> {
  const services = createServices({
    ...config,
    sources: { ...config.sources, allowPrivateHosts: true, cacheBytes: 4 * 1024 * 1024 },
    cache: { ...config.cache, decodedBytes: 16 * 1024 * 1024 },
  });
  const bytes = warmupNetcdf();
  const servers = await Promise.all(WARMUP_TILES.map((_, i) => startWarmupRangeServer(bytes, `warmup-${i}.nc`)));
  try {
    for (let i = 0; i < WARMUP_TILES.length; i++) {
      const [z, x, y] = WARMUP_TILES[i]!;
      const signal = new AbortController().signal;
      const dataset = await services.openArray(servers[i]!.url, { variables: ['sst'] }, signal);
      const reader = bindLayer(dataset, layerFromParams(undefined, undefined));
      const img = await reader.tile(
        getTileMatrixSet('WebMercatorQuad'),
        x,
        y,
        z,
        { tilesize: 256, resampling: 'nearest', reproject: 'nearest', unscale: false },
        signal,
      );
      try {
        await imageResponse(img, 'npy', { return_mask: true });
      } finally {
        releaseImage(img);
      }
    }
  } finally {
    await (services.sources as Partial<ManagedSourceOpener>).close?.();
    await Promise.all(servers.map((s) => s.close()));
  }
}

/**
 * The start-up slab for the first decoded chunk (util/faulted-reserve.ts `seed`): chunks up to 4
 * MiB (GHRSST's 1 × 1023 × 2047 int16, the bench's 1000 × 2000 int16) get their pages faulted in
 * already. ~20 ms of start-up CPU and 4 MiB of RSS, held until the first chunk leaves the cache.
 */
const FIRST_CHUNK_SLAB_BYTES = 4 * 1024 * 1024;

/**
 * The buffer pool's (util/buffer-pool.ts) 2 and 4 MiB classes, each with its first half faulted
 * in: a new process's first window read takes its source slab and its decoded band from these
 * classes (the bench's z4 tile: 1.1 MB of int16, 2.1 MB of float32) and wrote them into fresh
 * pages, ~800 page faults inside that tile. A buffer of class 2^k only serves requests of more
 * than 2^(k-1) bytes, so its first half is always written: those pages are never faulted for
 * nothing. 3 MiB of RSS from start-up, which the first such tile would add anyway (the pool keeps
 * its buffers); the rest of each buffer is faulted when a request writes it, as before.
 */
export function seedBufferPool(): void {
  const buffers = [2, 4].map((mib) => {
    const b = BUFFER_POOL.bytes(mib * 1024 * 1024);
    b.fill(1, 0, b.length >> 1);
    return b.buffer;
  });
  BUFFER_POOL.release(...buffers);
}

/**
 * The window decode's row loop (formats/array/decode-run.ts) made hot before the first request: the
 * warm-up tiles' 32 × 64 grid calls it on ~2 000 samples, too few for V8 to compile it, so a new
 * process's first tile ran it in the interpreter until it was compiled mid-tile. 64 rows of 512
 * int16 samples (a fill value every 7th) into a float32 band — the kinds an int16 CF-packed
 * variable such as the warm-up's `sst` decodes with, so the compiled code fits the real tile.
 */
export function warmWindowDecode(): void {
  const n = 512;
  const rows = 64;
  const src = new Int16Array(n * rows);
  for (let i = 0; i < src.length; i++) src[i] = i % 7 === 0 ? -32768 : i & 0x7fff;
  const dst = new Float32Array(n * rows);
  // The missing values as real granules hand them over: a NetCDF attribute's integer value can
  // arrive as a heap number (the bench's `_FillValue`, from dense attribute storage), the built-in
  // file's as a small integer. Code compiled for small integers only was deoptimised ("not a Smi")
  // by a new process's first tile and ran in the interpreter (~3 MB of boxed numbers) until
  // compiled again; half the rows here pass each kind, so the compiled code takes both.
  const boxed = Float64Array.of(-32768);
  for (let r = 0; r < rows; r++) {
    const m = r % 2 === 0 ? -32768 : boxed[0]!;
    decodeRun(dst, r * n, src, r * n, 1, n, m, m, 0.01, 273.15);
  }
}

/**
 * The streamed chunk decode (formats/hdf5/chunk-stream.ts: inflate each body piece, unshuffle it
 * into the chunk) made hot before the first request: the warm-up file's 4 KB chunk inflates in one
 * piece, so `scatter` was compiled (on-stack replacement, then whole) inside a new process's first
 * real chunk. Four 128 KiB int16 chunks, shuffled and deflated here, fed in 16 000-byte pieces as
 * an HTTP body arrives — under the 256 KiB from which chunks take util/faulted-reserve.ts'
 * buffers, so the reserve and its start-up slab are left alone.
 */
export function warmChunkStream(): void {
  const elements = 64 * 1024;
  const bytes = new Uint8Array(elements * 2);
  for (let i = 0; i < elements; i++) {
    const v = (i * 7 + (i >> 9)) & 0xffff; // shuffled into planes: low bytes, then high bytes
    bytes[i] = v & 0xff;
    bytes[elements + i] = v >> 8;
  }
  const stored = deflateSync(bytes);
  const piece = 16000;
  for (let c = 0; c < 4; c++) {
    const chunk = new StreamedChunk(bytes.length, 2, 'warm-up chunk');
    try {
      chunk.restart();
      for (let at = 0; at < stored.length; at += piece) chunk.write(stored.subarray(at, at + piece));
      const out = chunk.finish();
      if (out[2] !== 7 || out[3] !== 0) throw new Error('warm-up chunk decoded wrong');
    } finally {
      chunk.close();
    }
  }
}

/**
 * The spatial axes (formats/array/spatial-axes.ts `outputAxis`, `sortedOrder`) at a global 0.025°
 * grid's size — GHRSST's and the bench's: 14 400 longitudes, 7 200 latitudes ascending and
 * descending — so V8 compiles them before the first request (their TurboFan jobs were ~47 and
 * ~20–29 ms on a helper thread during a new process's first tile). ~30 ms of start-up CPU.
 */
export function warmSpatialAxes(): void {
  const lon = new Float64Array(14400);
  for (let i = 0; i < lon.length; i++) lon[i] = -179.9875 + 0.025 * i;
  const up = new Float64Array(7200);
  for (let i = 0; i < up.length; i++) up[i] = -89.9875 + 0.025 * i;
  const down = up.slice().reverse();
  outputAxis(up, true, false, 1);
  outputAxis(down, true, false, 1);
  outputAxis(lon, false, true, 0.025);
}

/**
 * Calls of the native grid at start-up. After one, V8 had compiled the helpers its loops call but
 * not `suggestedWarpOutput` itself, whose TurboFan job (on-stack replacement, 17–120 ms on a helper
 * thread by load) then ran inside a new process's first tile while the function ran unoptimised;
 * the second call marks it and the third starts the job, so it is compiled before the server
 * listens. The two extra calls: ~+40 ms of start-up CPU (mostly that job) and ~+2 MiB of RSS.
 */
const NATIVE_GRID_CALLS = 3;

/**
 * `suggestedWarpOutput` (geo/suggested-warp.ts: the native grid of a dataset in the tile matrix's
 * CRS) of a global 0.03° grid into Web Mercator, so V8 compiles it before the first request. A new
 * process's first tile ran it cold (~30–40 ms of CPU against ~5 warm, and ~10 MB of young garbage:
 * 3–5 scavenges inside that tile); a new file on a known grid skips it (memoised per grid), so only
 * a new process paid. Same path as a real global grid: ≥ 5 000 pixels a side (101 samples an edge,
 * GDAL's most), and edges a few µ° past ±180° as float32 longitudes put them (GHRSST's, the
 * bench's), whose wrap makes the edge bisections and single-point transforms that dominate. Nothing
 * is kept: called directly, not through the grid reader's memo. ~40 ms of start-up CPU for the
 * first call (NATIVE_GRID_CALLS).
 */
export function warmNativeGrid(): void {
  const width = 12000;
  const height = 5671; // the ±85.06° band the reader hands over for a 4326 → 3857 grid
  const west = -180.000003;
  const gt: GeoTransform = [west, (180.000003 - west) / width, 0, 85.06, 0, -170.12 / height];
  const webMercator = getTileMatrixSet('WebMercatorQuad').crs;
  for (let i = 0; i < NATIVE_GRID_CALLS; i++) suggestedWarpOutput(WGS84, webMercator, width, height, gt);
}

/**
 * One fetch() to a loopback listener of our own: loads the HTTP client and compiles its parser for
 * what still uses fetch (CMR searches, S3); http(s) range reads go through node:http
 * (sources/node-http-get.ts), which the warm-up's array tiles exercise.
 */
export async function warmHttpClient(): Promise<void> {
  const server = await startWarmupRangeServer(new TextEncoder().encode('ok'), 'ok');
  try {
    const res = await fetch(server.url, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
  } finally {
    await server.close();
  }
}

/** Runs the warm-up; never throws (a failure only means a colder first request), returns what failed. */
export async function warmUp(config: Config): Promise<Error | null> {
  try {
    // The HTTP client first, and one ArrayBuffer detached before it (reading a fetch() body
    // detaches one: done after the array tile, it threw the tile's optimised code away)
    detachOneArrayBuffer();
    await warmHttpClient();
    await warmArrayTiles(config);
    warmWindowDecode();
    warmChunkStream();
    warmSpatialAxes();
    warmNativeGrid();
    // The first chunk's decoded array: a new process has no pre-faulted buffer of its size yet
    // (util/faulted-reserve.ts makes one per size once a chunk was read), so give it a slab.
    FAULTED_RESERVE.seed(FIRST_CHUNK_SLAB_BYTES);
    seedBufferPool();
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}
