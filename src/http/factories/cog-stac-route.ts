/** GET /cog/stac: a STAC Item for the dataset (rio-stac `create_stac_item`). */
import type { FastifyInstance } from 'fastify';
import { stacItem } from '../cog-stac-item.ts';
import { urlParam } from '../params/dataset.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { P } from '../validation/params.ts';

export function registerCogStacRoute(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix: string, tag: string): void {
  const maxSide = services.config.limits.maxImageSide;
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/stac`,
    operationId: `${prefix.slice(1)}_stac`,
    summary: 'Create a STAC Item for the dataset (proj, raster and eo extensions).',
    tags: [tag],
    params: {
      ...urlParam,
      datetime: P.str().maxLength(100).describe('Item datetime, or a `start/end` interval (default: now).'),
      collection: P.str().maxLength(1000).describe('Collection id.'),
      collection_url: P.str().maxLength(2000).describe('Link to the collection.'),
      id: P.str().maxLength(1000).describe('Item id (default: the file name).'),
      asset_name: P.str().maxLength(200).default('data').describe('Asset key.'),
      asset_roles: P.str().maxLength(100).list(20).describe('Asset roles.'),
      asset_media_type: P.str().maxLength(200).default('auto').describe('Asset media type (`auto`: cloud-optimized GeoTIFF).'),
      asset_href: P.str().maxLength(2000).describe('Asset href (default: url).'),
      with_proj: P.bool().default(true).describe('Add the projection extension.'),
      with_raster: P.bool().default(true).describe('Add the raster extension (statistics from a preview).'),
      with_eo: P.bool().default(true).describe('Add the eo extension.'),
      max_size: P.int().gt(0).le(maxSide).default(1024).describe('Preview size for the raster statistics.'),
      geometry_densify: P.int().ge(0).default(0).describe('Accepted for rio-stac compatibility (the footprint is the bounding box).'),
      geometry_precision: P.int().ge(-1).le(15).default(-1).describe('Decimal places of the geometry (-1: full precision).'),
    },
    responses: {
      200: {
        description: 'STAC Item.',
        content: { 'application/json': { type: 'object', required: ['type', 'stac_version', 'id', 'geometry', 'bbox', 'properties', 'links', 'assets'] } },
      },
    },
    handler: async ({ params: p, signal }) => {
      const reader = await services.openCog(p.url, signal);
      const item = await stacItem(
        reader,
        {
          url: p.url,
          id: p.id,
          datetime: p.datetime,
          collection: p.collection,
          collectionUrl: p.collection_url,
          assetName: p.asset_name,
          assetRoles: p.asset_roles,
          assetMediaType: p.asset_media_type,
          assetHref: p.asset_href,
          withProj: p.with_proj,
          withRaster: p.with_raster,
          withEo: p.with_eo,
          maxSize: p.max_size,
          geometryPrecision: p.geometry_precision,
        },
        signal,
      );
      return { kind: 'json', data: item };
    },
  });
}
