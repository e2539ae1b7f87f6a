/**
 * Layer parameters of the /raster router (titiler-cmr §3.3 with TiTiler 2.x asset notation):
 * `assets` (repeatable, `name|bidx=…|expression=…`, default `0` = the granule's first data
 * file), `assets_regex` (hidden legacy alias `bands_regex`), `expression` over the concatenated
 * bands b1..bN (0.x expressions naming assets are translated), `asset_as_band`, and the mosaic's
 * `pixel_selection`.
 */
import { Errors } from '../../errors.ts';
import { PIXEL_SELECTION_METHODS } from '../../mosaic/pixel-selection.ts';
import { compileExpression, parseExpression, type CompiledExpression } from '../../raster/expression/index.ts';
import { translateLegacyExpression } from '../../granule/legacy-expression.ts';
import { expressionValue } from '../params/dataset.ts';
import type { GranuleLayer } from '../../granule/granule-mosaic-reader.ts';
import type { AssetRequest } from '../../readers/stac/asset-request.ts';
import { assetRequestValue } from '../params/assets.ts';
import { regexValue } from '../params/regex.ts';
import { P } from '../validation/params.ts';

const assetParam = assetRequestValue()
  .list()
  .describe(
    'Asset keys to read, repeatable, in output-band order (default `0`: the first data file of each granule). Keys are ' +
      'the `assets_regex` matches, or `0`, `1`, … in the order of the granule’s data links. Per-asset options: ' +
      '`name|bidx=1,2`, `name|expression=b1*2`.',
  );

export const granuleRasterParams = {
  assets: assetParam,
  assets_regex: regexValue('assets_regex').describe(
    'Regular expression searched in each data file name (without extension); the matched text becomes the asset key (e.g. `B[0-9][0-9]` → B01, B02, …). Files that do not match are ignored.',
  ),
  bands_regex: regexValue('bands_regex').hidden().describe('Deprecated alias of assets_regex (used only when assets_regex is absent).'),
  expression: expressionValue().describe(
    "Band math over the concatenated bands b1..bN of the assets, in asset order (e.g. `(b2-b1)/(b2+b1)`); several outputs separated by ';'. " +
      '0.x expressions naming assets (`(B05-B04)/(B05+B04)`) are translated to positions in `assets` (or choose `assets` when it is absent).',
  ),
  asset_as_band: P.bool().default(false).describe("Describe each (1-band) asset's band by the asset key."),
  pixel_selection: P.literal(PIXEL_SELECTION_METHODS)
    .default('first')
    .describe(
      'How overlapping granules are combined: first (default: first valid granule in CMR order; stops reading once filled), highest, lowest, mean, median, stdev, lastbandlow, lastbandhigh (per pixel by the last band, which is dropped), count (valid granules per pixel).',
    ),
};

export interface GranuleRasterParamValues {
  assets?: AssetRequest[];
  assets_regex?: RegExp;
  bands_regex?: RegExp;
  expression?: string;
  asset_as_band: boolean;
}

const DEFAULT_ASSETS: AssetRequest[] = [{ name: '0', key: '0' }];

/** The reader layer for the parsed parameters (legacy expression translated, default assets). */
export function granuleLayer(p: GranuleRasterParamValues): { layer: GranuleLayer; assetsRegex?: RegExp } {
  let assets = p.assets && p.assets.length > 0 ? p.assets : undefined;
  let expression: CompiledExpression | undefined;
  if (p.expression !== undefined && p.expression.trim() !== '') {
    const t = translateLegacyExpression(
      p.expression,
      assets?.map((a) => a.name),
    );
    if (t.assets) assets = t.assets.map((name) => ({ name, key: name }));
    expression = compileExpression(parseExpression(t.expression));
  }
  assets ??= DEFAULT_ASSETS;
  if (assets.length === 0) throw Errors.badRequest('assets must not be empty');
  return { layer: { assets, expression, assetAsBand: p.asset_as_band }, assetsRegex: p.assets_regex ?? p.bands_regex };
}
