/** The /cog router: one GeoTIFF named by `url`, bands chosen by `bidx` or `expression`. */
import type { FastifyInstance } from 'fastify';
import { cogInfo } from '../../readers/cog/info.ts';
import { bindLayer } from '../../readers/image-reader.ts';
import { layerFromParams } from '../../readers/layer.ts';
import { bidxExpressionParams, urlParam } from '../params/dataset.ts';
import type { RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import type { ImageBackend } from './backend.ts';
import { registerCogInfoRoutes } from './cog-info-routes.ts';
import { registerPartRoutes } from './part-routes.ts';
import { registerStatisticsRoutes } from './statistics-routes.ts';
import { registerTileRoutes } from './tile-routes.ts';
import { registerTileSetRoutes } from './tileset-routes.ts';

export function registerCogRouter(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix = '/cog'): void {
  const params = { ...urlParam, ...bidxExpressionParams };
  const backend: ImageBackend<typeof params> = {
    prefix,
    tag: 'Cloud Optimized GeoTIFF',
    params,
    open: async (p, signal) => bindLayer(await services.openCog(p.url, signal), layerFromParams(p.bidx, p.expression)),
    tileJsonExtras: async (p, signal) => {
      const info = cogInfo((await services.openCog(p.url, signal)).ds);
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
}
