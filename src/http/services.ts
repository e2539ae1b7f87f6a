/**
 * Composition root of the core services one app instance uses: byte sources, caches, dataset
 * opening. Built once from the Config; route factories receive it.
 */
import type { Config } from '../config.ts';
import { createBlockCache, type BlockCache } from '../formats/tiff/block-cache.ts';
import { CogReader } from '../readers/cog/cog-reader.ts';
import { DatasetCache } from '../readers/cog/cog-dataset.ts';
import { createSourceOpener, type SourceOpener } from '../sources/open-source.ts';

export interface Services {
  config: Config;
  sources: SourceOpener;
  blockCache: BlockCache;
  openCog(url: string, signal?: AbortSignal): Promise<CogReader>;
}

export function createServices(config: Config): Services {
  const sources = createSourceOpener(config.sources);
  const blockCache = createBlockCache(config.cache.decodedBytes);
  const datasets = new DatasetCache(
    { sources, blockCache, maxBlockBytes: config.limits.maxBlockBytes, sidecars: true },
    config.cache.datasets,
  );
  const limits = { maxReadPixels: config.limits.maxReadPixels };
  return {
    config,
    sources,
    blockCache,
    async openCog(url, signal) {
      return new CogReader(await datasets.open(url, signal), limits);
    },
  };
}
