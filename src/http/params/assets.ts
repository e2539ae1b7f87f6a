/**
 * The multi-asset layer parameters (TiTiler 2.x AssetsExprParams): the repeatable, required
 * `assets` (with the per-asset `name|bidx=…|expression=…|bands=…` notation), the global
 * `expression` over the concatenated bands b1..bN, and `asset_as_band`.
 */
import { parseAssetRequest, type AssetRequest } from '../../readers/stac/asset-request.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';
import { expressionValue } from './dataset.ts';

const ASSETS_DESCRIPTION =
  'Asset names, repeatable (`assets=B01&assets=B09`). Per-asset options: `name|bidx=1,2`, `name|expression=b1*2` ' +
  "(on that asset's own bands), `name|bands=red,green` (STAC band names). `:all:` selects every raster asset on " +
  '/info, /info.geojson, /asset_statistics and /statistics.';

/** One `assets` value in the per-asset notation (repeat with `.list()`). */
export const assetRequestValue = () =>
  P.custom<AssetRequest>(
    (raw) => {
      const r = parseAssetRequest(raw);
      return typeof r === 'string' ? fail(Problems.value(r)) : r;
    },
    { type: 'string' },
  );

const assetsParam = assetRequestValue().list().required().describe(ASSETS_DESCRIPTION);

export const assetsParams = { assets: assetsParam };

export const assetsExprParams = {
  assets: assetsParam,
  expression: expressionValue().describe(
    "rio-tiler band math over the concatenated bands b1..bN of the assets, in asset order (e.g. `(b2-b1)/(b2+b1)`); several outputs separated by ';'. Cannot name assets.",
  ),
  asset_as_band: P.bool().default(false).describe("Describe each (1-band) asset's band by the asset name."),
};
