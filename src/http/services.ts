/**
 * Composition root of the core services one app instance uses: byte sources, caches, dataset
 * opening. Built once from the Config; route factories receive it.
 */
import type { Config } from '../config.ts';
import { createBlockCache, type BlockCache } from '../formats/tiff/block-cache.ts';
import { openTiffGrid, tiffGridVersions } from '../formats/tiff/tiff-grid.ts';
import { GridReader } from '../readers/grid/grid-reader.ts';
import type { ReadPlan } from '../readers/grid/read-plan.ts';
import { CmrClient, DEFAULT_CMR_CLIENT_OPTIONS } from '../search/cmr-client.ts';
import { earthdataAuth, type EarthdataAuth } from '../sources/earthdata-auth.ts';
import { DatasetCache } from '../readers/grid/dataset-cache.ts';
import { createSourceOpener, type SourceOpener } from '../sources/open-source.ts';
import { SOURCE_READ_KIND } from '../sources/version.ts';
import { ChunkCache } from '../formats/array/chunk-cache.ts';
import { ArrayOpener, arrayDatasetKey } from '../formats/array/open-array-dataset.ts';
import type { ArraySelection } from '../formats/array/open-array-grid.ts';
import { openHdf5 } from '../formats/hdf5/open-hdf5.ts';
import { openNetcdf3 } from '../formats/netcdf3/open-netcdf3.ts';
import { localZarrLister } from '../formats/zarr/local-listing.ts';

export interface Services {
  config: Config;
  sources: SourceOpener;
  blockCache: BlockCache;
  /** A GeoTIFF, opened once per location (cached), as a reader over its GridDataset. */
  openCog(url: string, signal?: AbortSignal): Promise<GridReader>;
  /** HDF5/NetCDF/Zarr files: opened files, their listings (/zarr/variables…). */
  arrays: ArrayOpener;
  /** A selection of variables of an array file as a reader over its GridDataset (cached per file version and selection). */
  openArray(url: string, selection: ArraySelection, signal?: AbortSignal): Promise<GridReader>;
  /** NASA CMR granule search (granule-search routers). */
  cmr: CmrClient;
  /** Earthdata Login bearer tokens for https granule reads, when credentials are configured. */
  earthdata?: EarthdataAuth;
  /** The current version of an input a response read (src/util/read-set.ts), for the response cache. */
  currentVersion?(kind: string, location: string, signal?: AbortSignal): Promise<string | undefined>;
  /** `currentVersion` when a synchronous check can tell (local files), else undefined: the response cache's fast path. */
  peekVersion?(kind: string, location: string): string | undefined;
}

export interface ServiceHooks {
  /** Sees each dataset read's plan before it runs (the app logs it at debug level). */
  onReadPlan?: (plan: ReadPlan) => void;
}

export function createServices(config: Config, hooks: ServiceHooks = {}): Services {
  const earthdata = config.earthdata ? earthdataAuth(config.earthdata) : undefined;
  const sources = createSourceOpener(
    earthdata && !config.sources.authHeaders ? { ...config.sources, authHeaders: (url) => earthdata.authHeaders(url) } : config.sources,
  );
  const cmr = new CmrClient({
    baseUrl: config.cmrUrl,
    ...(config.cmrClientId !== undefined ? { clientId: config.cmrClientId } : {}),
    timeoutMs: config.cmrTimeoutMs,
    retries: config.cmrRetries,
    pageSize: DEFAULT_CMR_CLIENT_OPTIONS.pageSize,
  });
  const blockCache = createBlockCache(config.cache.decodedBytes);
  const tiffContext = { sources, blockCache, maxBlockBytes: config.limits.maxBlockBytes, sidecars: true };
  const datasets = new DatasetCache(
    (location, signal) => openTiffGrid(location, tiffContext, signal),
    config.cache.datasets,
    tiffGridVersions(tiffContext), // a dataset changed in place is opened again (src/sources/version.ts)
  );
  const limits = { maxReadPixels: config.limits.maxReadPixels };
  // Arrays: decoded chunks share the TIFF block cache (one budget); a chunk may not exceed what one request may hold.
  const arrays = new ArrayOpener({
    sources,
    chunkCache: new ChunkCache(blockCache, config.limits.maxRequestBytes),
    // The HDF5 reader is loaded with the app (+0.4–0.5 MiB RSS; loading it on the first file cost
    // that request 15–30 ms of CPU); the Zarr reader (zarrita, ~5 MB) on its first store.
    formats: {
      hdf5: (source, signal) => openHdf5(source, signal),
      netcdf3: (source, signal) => openNetcdf3(source, signal),
      zarr: async (location, signal, hints) =>
        (await import('../formats/zarr/open-zarr.ts')).openZarr(location, (l, s, f) => sources.open(l, s, f), signal, {
          list: localZarrLister(config.sources.localRoots),
          ...(hints ? { hints } : {}),
        }),
    },
  });
  const arrayDatasets = new DatasetCache(arrays.openKey, config.cache.datasets, arrays.versions(), 'array');
  // The response cache's validators: each recorded dataset is checked by the cache that opened it.
  const byKind = new Map<string, { currentVersion(location: string, signal?: AbortSignal): Promise<string | undefined> }>(
    [datasets, arrayDatasets].map((c) => [c.readKind, c]),
  );
  // Documents read whole from a source (MosaicJSON): the version of the source open now.
  byKind.set(SOURCE_READ_KIND, { currentVersion: async (location, signal) => (await sources.open(location, signal)).version });
  return {
    config,
    sources,
    blockCache,
    async openCog(url, signal) {
      return new GridReader(await datasets.open(url, signal), limits, hooks.onReadPlan);
    },
    arrays,
    async openArray(url, selection, signal) {
      return new GridReader(await arrayDatasets.open(arrayDatasetKey(url, selection), signal), limits, hooks.onReadPlan);
    },
    cmr,
    currentVersion: async (kind, location, signal) => byKind.get(kind)?.currentVersion(location, signal),
    peekVersion: (kind, location) => (kind === datasets.readKind ? datasets.peekVersion(location) : undefined),
    ...(earthdata !== undefined ? { earthdata } : {}),
  };
}
