/** Turns `assets` requests into the item's assets plus each asset's band selection. */
import { Errors } from '../../errors.ts';
import { layerFromParams, type Layer } from '../layer.ts';
import { ALL_ASSETS, type AssetRequest } from './asset-request.ts';
import type { StacAsset, StacItem } from './item.ts';

export interface SelectedAsset {
  /** Response key (`name` or `name|options`). */
  key: string;
  asset: StacAsset;
  /** Bands of the asset to read (bidx/bands) or its own expression. */
  layer: Layer;
}

/** Python's repr of a list of strings: `['B01', 'B09']`. */
const pyList = (names: Iterable<string>): string => `[${[...names].map((n) => `'${n}'`).join(', ')}]`;

/**
 * Resolves the requests against the item: unknown names → InvalidAssetName (404) listing the
 * valid ones; `:all:` (alone) means every raster asset where `allowAll`, else it is an unknown name.
 */
export function selectAssets(item: StacItem, requests: readonly AssetRequest[], options: { allowAll: boolean }): SelectedAsset[] {
  if (options.allowAll && requests.length === 1 && requests[0].name === ALL_ASSETS && requests[0].key === ALL_ASSETS) {
    return [...item.assets.values()].map((asset) => ({ key: asset.name, asset, layer: {} }));
  }
  return requests.map((req) => {
    const asset = item.assets.get(req.name);
    if (!asset) throw Errors.invalidAssetName(`'${req.name}' is not valid, should be one of ${pyList(item.assets.keys())}`, { context: { asset: req.name } });
    const indexes = req.bands ? bandIndexes(asset, req.bands) : req.indexes;
    return { key: req.key, asset, layer: layerFromParams(indexes, req.expression) };
  });
}

/**
 * `bands=red,green`: 1-based positions in the asset's STAC band list, matched on the common name,
 * else the band name (the last band with that key wins, like a Python dict).
 */
function bandIndexes(asset: StacAsset, names: readonly string[]): number[] {
  if (asset.bands.length === 0) throw Errors.badRequest(`Asset '${asset.name}' has no 'bands' metadata, unable to use the 'bands' option`);
  const byKey = new Map<string, number>();
  asset.bands.forEach((b, i) => byKey.set(b.commonName ?? b.name ?? String(i + 1), i + 1));
  return names.map((n) => {
    const idx = byKey.get(n);
    if (idx === undefined)
      throw Errors.badRequest(`Band '${n}' not found in the metadata of asset '${asset.name}' (available: ${[...byKey.keys()].join(', ')})`);
    return idx;
  });
}
