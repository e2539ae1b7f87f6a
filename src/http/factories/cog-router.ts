/** The /cog router: one GeoTIFF named by `url`, bands chosen by `bidx` or `expression`. */
import type { FastifyInstance } from 'fastify';
import type { DatasetReader } from '../../readers/reader.ts';
import { bindLayer, type ImageReader } from '../../readers/image-reader.ts';
import { layerFromParams } from '../../readers/layer.ts';
import { bidxExpressionParams, urlParam } from '../params/dataset.ts';
import type { RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import type { ImageBackend } from './backend.ts';
import { registerCogInfoRoutes } from './cog-info-routes.ts';
import { registerCogValidateRoute } from './cog-validate-route.ts';
import { registerCogStacRoute } from './cog-stac-route.ts';
import { registerPartRoutes } from './part-routes.ts';
import { registerMapRoute } from './map-route.ts';
import { registerStatisticsRoutes } from './statistics-routes.ts';
import { registerTileRoutes } from './tile-routes.ts';
import { registerTileSetRoutes } from './tileset-routes.ts';
import { registerViewerRoute } from './viewer-route.ts';

/** The layer-bound reader, keeping the dataset's reader for the TileJSON extras. */
type CogLayerReader = ImageReader & { readonly cog: DatasetReader };

export function registerCogRouter(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix = '/cog'): void {
  const params = { ...urlParam, ...bidxExpressionParams };
  const backend: ImageBackend<typeof params, CogLayerReader> = {
    prefix,
    tag: 'Cloud Optimized GeoTIFF',
    params,
    open: async (p, signal) => {
      const cog = await services.openCog(p.url, signal);
      return { ...bindLayer(cog, layerFromParams(p.bidx, p.expression)), cog };
    },
    tileJsonExtras: (_p, reader) => {
      const info = reader.cog.info();
      return {
        raster_layers: {},
        band_descriptions: info.band_descriptions,
        data_type: info.dtype,
        ...(info.minmax ? { minmax: info.minmax } : {}),
      };
    },
    layerTitle: (p) => p.url,
  };
  const maxSide = services.config.limits.maxImageSide;
  registerCogInfoRoutes(app, registry, services, prefix, backend.tag);
  registerStatisticsRoutes(app, registry, backend, maxSide);
  registerTileSetRoutes(app, registry, backend);
  registerTileRoutes(app, registry, backend);
  registerPartRoutes(app, registry, backend, maxSide);
  registerCogValidateRoute(app, registry, services, prefix, backend.tag);
  registerMapRoute(app, registry, backend, maxSide);
  registerCogStacRoute(app, registry, services, prefix, backend.tag);
  registerViewerRoute(app, registry, prefix, backend.tag);
}
