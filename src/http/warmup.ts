/**
 * Start-up warm-up of the array tile path (issue 10, cold first tile): before the server listens,
 * render one `.npy` tile of a tiny built-in NetCDF-4 (formats/array/warmup-netcdf.ts) through the
 * same code as a /zarr tile — HDF5 open, CF decoding, chunk inflate + unshuffle, coordinate axes,
 * the native grid (suggestedWarpOutput), proj4, the warp and the encoder — and send one request
 * with the HTTP client (fetch) to a loopback listener of its own. The first real request then
 * runs compiled code with warm inline caches instead of paying for lazy compilation, the HTTP
 * client's set-up and its parser's WebAssembly compile. Nothing of it is kept: its own chunk
 * cache, no byte source, no state in the app's caches.
 *
 * RASTILE_WARMUP=0 skips it (see serve.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChunkCache } from '../formats/array/chunk-cache.ts';
import { openArrayGrid } from '../formats/array/open-array-grid.ts';
import { warmupNetcdf } from '../formats/array/warmup-netcdf.ts';
import { openHdf5 } from '../formats/hdf5/open-hdf5.ts';
import { createBlockCache } from '../formats/tiff/block-cache.ts';
import { getTileMatrixSet } from '../geo/tms.ts';
import { releaseImage } from '../raster/image-data.ts';
import { GridReader } from '../readers/grid/grid-reader.ts';
import { bindLayer } from '../readers/image-reader.ts';
import { layerFromParams } from '../readers/layer.ts';
import type { Source } from '../sources/source.ts';
import { imageResponse } from './factories/image-output.ts';

/** The bytes as a Source (in memory: no version, never changes). */
function memorySource(bytes: Uint8Array): Source {
  return {
    url: 'warmup:sst.nc',
    size: bytes.length,
    fetch: (offset, length) => Promise.resolve(bytes.slice(offset, Math.min(bytes.length, offset + length))),
  };
}

/** One /zarr-style `.npy` tile of the built-in file (WebMercatorQuad 1/0/0, the reprojecting path). */
async function warmArrayTile(maxReadPixels: number): Promise<void> {
  const file = await openHdf5(memorySource(warmupNetcdf()));
  const grid = await openArrayGrid(file, { variables: ['sst'] }, new ChunkCache(createBlockCache(1024 * 1024), 1024 * 1024));
  const reader = bindLayer(new GridReader(grid, { maxReadPixels }), layerFromParams(undefined, undefined));
  const img = await reader.tile(getTileMatrixSet('WebMercatorQuad'), 0, 0, 1, { tilesize: 256, resampling: 'nearest', reproject: 'nearest', unscale: false });
  try {
    await imageResponse(img, 'npy', { return_mask: true });
  } finally {
    releaseImage(img);
  }
}

/** One fetch() to a loopback listener of our own: loads the HTTP client and compiles its parser. */
export async function warmHttpClient(): Promise<void> {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Runs the warm-up; never throws (a failure only means a colder first request), returns what failed. */
export async function warmUp(options: { maxReadPixels: number }): Promise<Error | null> {
  try {
    // The HTTP client first, and one ArrayBuffer detached before it: the first detach in an
    // isolate (reading a fetch() body does one) invalidates V8's array-buffer-detaching protector,
    // which deoptimises every compiled function with typed-array accesses ("code dependencies" in
    // --trace-deopt). Done after the array tile, it threw the tile's optimised code away (seen:
    // coordSpan, nearest, maskBand, segmentAt), to be compiled again during the first real tile.
    structuredClone(new ArrayBuffer(8), { transfer: [new ArrayBuffer(8)] });
    await warmHttpClient();
    await warmArrayTile(options.maxReadPixels);
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}
