/**
 * The /stac router: a STAC Item named by `url`, its raster assets chosen by the required,
 * repeatable `assets` (per-asset `name|bidx=…|expression=…|bands=…`), a global `expression` over
 * the concatenated bands b1..bN and `asset_as_band` (TiTiler 2.x MultiBaseTilerFactory with
 * STACReader, titiler spec §12). Every image, tile and statistics endpoint is the shared one,
 * driven by a STAC backend.
 */
import type { FastifyInstance } from 'fastify';
import { compileExpression, parseExpression } from '../../raster/expression/index.ts';
import { StacItemLoader } from '../../readers/stac/item-loader.ts';
import { selectAssets } from '../../readers/stac/select-assets.ts';
import { StacReader, type AssetOpener } from '../../readers/stac/stac-reader.ts';
import { assetsExprParams } from '../params/assets.ts';
import type { RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import type { ImageBackend } from './backend.ts';
import { registerPartRoutes } from './part-routes.ts';
import { registerMapRoute } from './map-route.ts';
import { registerStacRendersRoutes } from './stac-renders-routes.ts';
import { registerStacInfoRoutes } from './stac-info-routes.ts';
import { stacUrlParam } from './stac-params.ts';
import { registerStatisticsRoutes } from './statistics-routes.ts';
import { registerTileRoutes } from './tile-routes.ts';
import { registerTileSetRoutes } from './tileset-routes.ts';
import { registerViewerRoute } from './viewer-route.ts';

const TAG = 'SpatioTemporal Asset Catalog';

export function registerStacRouter(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix = '/stac'): void {
  const loader = new StacItemLoader(services.sources);
  const openAsset: AssetOpener = (href, signal) => services.openCog(href, signal);
  const params = { ...stacUrlParam, ...assetsExprParams };

  /** `allowAll`: `assets=:all:` selects every raster asset (merged statistics only). */
  const backend = (allowAll: boolean): ImageBackend<typeof params, StacReader> => ({
    prefix,
    tag: TAG,
    params,
    open: async (p, signal) => {
      const expression = p.expression ? compileExpression(parseExpression(p.expression)) : undefined;
      const item = await loader.load(p.url, signal);
      return new StacReader(item, selectAssets(item, p.assets, { allowAll }), openAsset, { expression, assetAsBand: p.asset_as_band });
    },
    tileJsonExtras: (_p, reader) => ({ raster_layers: reader.item.renders }),
    layerTitle: (p) => p.url,
  });

  // Tile set listings describe the item itself: no `assets` needed.
  const itemBackend: ImageBackend<typeof stacUrlParam> = {
    prefix,
    tag: TAG,
    params: stacUrlParam,
    open: async (p, signal) => new StacReader(await loader.load(p.url, signal), [], openAsset),
    layerTitle: (p) => p.url,
  };

  const maxSide = services.config.limits.maxImageSide;
  registerStacInfoRoutes(app, registry, { prefix, tag: TAG, urlParam: stacUrlParam, loader, services, maxSide });
  registerStatisticsRoutes(app, registry, backend(true), maxSide);
  registerTileSetRoutes(app, registry, itemBackend);
  registerTileRoutes(app, registry, backend(false));
  registerPartRoutes(app, registry, backend(false), maxSide);
  registerMapRoute(app, registry, backend(false), maxSide);
  registerStacRendersRoutes(app, registry, loader, prefix, TAG);
  registerViewerRoute(app, registry, prefix, TAG);
}
