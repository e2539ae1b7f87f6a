/** GET /cog/validate: rio-cogeo's `cog_info` (COG layout verdict, profile, georeferencing, IFDs). */
import type { FastifyInstance } from 'fastify';
import { cogInfo } from '../cog-validation.ts';
import { urlParam } from '../params/dataset.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { P } from '../validation/params.ts';

export function registerCogValidateRoute(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix: string, tag: string): void {
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/validate`,
    operationId: `${prefix.slice(1)}_validate`,
    summary: 'Validate a Cloud Optimized GeoTIFF.',
    description:
      'rio-cogeo `cog_info`: `COG` is true when the layout has no error (GDAL validate_cloud_optimized_geotiff.py rules: tiling, internal overviews, IFDs before data, smallest overview data first); with `strict=true` warnings count as errors.',
    tags: [tag],
    params: { ...urlParam, strict: P.bool().default(false).describe('Treat warnings as errors.') },
    responses: {
      200: {
        description: 'COG information.',
        content: {
          'application/json': {
            type: 'object',
            required: ['Path', 'Driver', 'COG', 'COG_errors', 'COG_warnings', 'Profile', 'GEO', 'IFD'],
            properties: {
              Path: { type: 'string' },
              Driver: { type: 'string' },
              COG: { type: 'boolean' },
              Compression: { type: ['string', 'null'] },
              ColorSpace: { type: ['string', 'null'] },
              COG_errors: { type: 'array', items: { type: 'string' } },
              COG_warnings: { type: 'array', items: { type: 'string' } },
              Profile: { type: 'object' },
              GEO: { type: 'object' },
              Tags: { type: 'object' },
              IFD: { type: 'array', items: { type: 'object' } },
            },
          },
        },
      },
    },
    handler: async ({ params, signal }) => ({ kind: 'json', data: await cogInfo(services, params.url, params.strict, signal) }),
  });
}
