/** GET /statistics (whole dataset at max_size) and POST /statistics (inside GeoJSON features). */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import { WGS84 } from '../../geo/crs.ts';
import { releaseImage } from '../../raster/image-data.ts';
import { imageStatistics } from '../../raster/image-statistics.ts';
import { parseFeatureOrCollection } from '../geojson-body.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { coordCrsParam, dstCrsParam } from '../params/crs.ts';
import { datasetParams, readOptions } from '../params/dataset.ts';
import { partSizeParams, previewSize, previewSizeParams } from '../params/image-size.ts';
import { coverScaleParam, histogramParams, statisticsOptions, statisticsParams } from '../params/statistics.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { featureStatistics } from './feature-statistics.ts';
import { postProcessFor } from './image-output.ts';
import { schemaRef } from '../openapi-schemas.ts';

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function registerStatisticsRoutes<D extends ParamDefs>(app: FastifyInstance, registry: RouteRegistry, backend: ImageBackend<D>, maxSide: number): void {
  const { prefix } = backend;
  const tags = [backend.tag];
  const common = { ...backend.params, ...datasetParams, ...algorithmParams, ...statisticsParams, ...histogramParams };

  if (backend.wholeDatasetPreview ?? true)
    registerRoute(app, registry, {
      method: 'GET',
      path: `${prefix}/statistics`,
      operationId: `${prefix.slice(1)}_statistics`,
      summary: 'Statistics of the dataset (computed on a preview of the whole dataset, max_size 1024 by default).',
      tags,
      params: { ...common, ...previewSizeParams(maxSide) },
      responses: { 200: { description: 'Statistics per band, keyed by band name.', content: { 'application/json': schemaRef('Statistics') } } },
      handler: async ({ params: p, signal }) => {
        const post = postProcessFor(p);
        const reader = await backend.open(p, signal);
        const img = await reader.preview({ ...readOptions(p), ...previewSize(p) }, signal);
        const shown = await post(img);
        try {
          return { kind: 'json', data: imageStatistics(shown, statisticsOptions(p)) };
        } finally {
          // counted: the pixels are read by no one any more (pooled buffers serve the next read)
          releaseImage(img);
          if (shown !== img) releaseImage(shown);
        }
      },
    });

  registerRoute(app, registry, {
    method: 'POST',
    path: `${prefix}/statistics`,
    operationId: `${prefix.slice(1)}_geojson_statistics`,
    summary: 'Statistics of the dataset inside GeoJSON features, weighted by pixel coverage.',
    tags,
    params: { ...common, ...coordCrsParam, ...dstCrsParam, ...partSizeParams(maxSide), ...coverScaleParam },
    body: {
      required: true,
      description: 'GeoJSON Feature or FeatureCollection.',
      schema: { oneOf: [{ $ref: '#/components/schemas/Feature' }, { $ref: '#/components/schemas/FeatureCollection' }] },
    },
    responses: {
      200: {
        description: 'The input, with `properties.statistics` in each feature.',
        content: { 'application/geo+json': { anyOf: [{ $ref: '#/components/schemas/Feature' }, { $ref: '#/components/schemas/FeatureCollection' }] } },
      },
    },
    handler: async ({ params: p, body, signal }) => {
      const input = parseFeatureOrCollection(body);
      const post = postProcessFor(p);
      const reader = await backend.open(p, signal);
      const coordCrs = p.coord_crs ?? WGS84;
      const dstCrs = p.dst_crs ?? coordCrs;
      const features = input.type === 'FeatureCollection' ? input.features : [input];
      for (let i = 0; i < features.length; i++) {
        const feature = features[i]!;
        // Many features are many reads: let health checks and other requests in between, and stop
        // once the client has gone.
        if (i > 0) await yieldToEventLoop();
        if (signal.aborted) throw Errors.badRequest('request aborted by the client');
        const { statistics, used } = await featureStatistics(reader, p, post, feature, coordCrs, dstCrs, signal);
        feature.properties = {
          ...(feature.properties ?? {}),
          statistics,
          ...(used ? { used_assets: used } : {}),
        };
      }
      return { kind: 'json', contentType: 'application/geo+json', data: input };
    },
  });
}
