/**
 * What the /raster and /array backends share: a request's CMR search bound to its filters, the
 * search bounds, the granule assets (with Earthdata hosts allowed), the GranuleMosaicReader, and a
 * time-series step's search done before its read. Each backend says only how it reads a granule.
 */
import { assetHref } from '../../granule/granule-item.ts';
import { GranuleMosaicReader, type GranuleMosaicOptions } from '../../granule/granule-mosaic-reader.ts';
import { SearchBounds } from '../../granule/search-bounds.ts';
import { granuleAssets, granuleDataHosts } from '../../search/granule-assets.ts';
import { granuleQueryFromParams } from '../../search/query-params.ts';
import { sharedStepSearch } from '../../search/series-search.ts';
import type { GranuleSearchParamValues } from '../../search/query-params.ts';
import type { Granule } from '../../search/types.ts';
import type { Bounds } from '../../geo/bounds.ts';
import type { Services } from '../services.ts';
import type { StepSearch } from './timeseries-routes.ts';

/** How one backend reads the granules of a request. */
export interface GranuleReadSpec {
  assetsRegex?: RegExp;
  openAsset: GranuleMosaicOptions['openAsset'];
  layer: GranuleMosaicOptions['layer'];
  readableAsset?: GranuleMosaicOptions['readableAsset'];
  /** Added to a step's key when the read depends on more than the granules found (array `sel`). */
  stepKey?: string;
}

type GranuleParams = GranuleSearchParamValues & { pixel_selection: GranuleMosaicOptions['pixelSelection'] };

export interface GranuleMosaicOpeners<P> {
  open(p: P, signal: AbortSignal): Promise<GranuleMosaicReader>;
  searchStep(p: P, area: Bounds, signal: AbortSignal): Promise<StepSearch>;
  /** The reader over granules a step's search found (`searchBounds`: its StepSearch's), without a search: a worker thread's read. */
  openGranules(p: P, granules: readonly Granule[], searchBounds: Bounds): GranuleMosaicReader;
}

export function granuleMosaicOpeners<P extends GranuleParams>(
  services: Services,
  coverageTolerance: number,
  spec: (p: P) => GranuleReadSpec,
): GranuleMosaicOpeners<P> {
  const bounds = new SearchBounds((q, area, signal) => services.cmr.searchGranules(q, area, signal));
  const assetsOf = (regex: RegExp | undefined) => (g: Granule) => {
    // Earthdata tokens go only to the hosts the granules' own https links name.
    if (services.earthdata) for (const h of granuleDataHosts(g)) services.earthdata.allowHost(h);
    return granuleAssets(g, regex).filter((a) => assetHref(a) !== undefined);
  };
  const query = (p: P) => granuleQueryFromParams(p, { coverageTolerance });
  const readerOver = (p: P, s: GranuleReadSpec, search: GranuleMosaicOptions['search'], searchBounds: Bounds) =>
    new GranuleMosaicReader({
      search,
      assets: assetsOf(s.assetsRegex),
      readableAsset: s.readableAsset,
      openAsset: s.openAsset,
      layer: s.layer,
      pixelSelection: p.pixel_selection,
      concurrency: services.config.mosaicConcurrency,
      bounds: searchBounds,
    });
  const reader = async (p: P, s: GranuleReadSpec, search: GranuleMosaicOptions['search'], signal: AbortSignal) =>
    readerOver(p, s, search, await bounds.bounds(query(p), signal));
  const over = (granules: readonly Granule[]): GranuleMosaicOptions['search'] =>
    async function* () {
      yield* granules;
    };
  return {
    open(p, signal) {
      const q = query(p);
      return reader(p, spec(p), (area, s) => services.cmr.searchGranules(q, area, s), signal);
    },
    // A time-series step's search, done before its read: steps finding the same granules (and
    // reading them the same way) share one read.
    async searchStep(p, area, signal) {
      const q = query(p);
      const where = { kind: 'bbox', bounds: area } as const;
      // the steps of a series share one range search where that is provably the same (series-search.ts)
      let granules = await sharedStepSearch(services.cmr, q, where, signal);
      if (granules === undefined) {
        granules = [];
        for await (const g of services.cmr.searchGranules(q, where, signal)) granules.push(g);
      }
      const s = spec(p);
      const ids = granules.map((g) => g.id).join(' ');
      return {
        key: s.stepKey === undefined ? ids : `${ids}|${s.stepKey}`,
        count: granules.length,
        granules,
        searchBounds: (sig) => bounds.bounds(query(p), sig),
        open: (sig) => reader(p, s, over(granules), sig),
      };
    },
    openGranules: (p, granules, searchBounds) => readerOver(p, spec(p), over(granules), searchBounds),
  };
}
