/** GET /statistics (whole dataset at max_size) and POST /statistics (inside GeoJSON features). */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import { WGS84 } from '../../geo/crs.ts';
import { imageStatistics } from '../../raster/image-statistics.ts';
import { coverageFractions } from '../../raster/rasterize.ts';
import type { StatisticsOptions } from '../../raster/statistics.ts';
import type { ReadOptions } from '../../readers/read-options.ts';
import { parseFeatureOrCollection } from '../geojson-body.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { coordCrsParam, dstCrsParam } from '../params/crs.ts';
import { datasetParams } from '../params/dataset.ts';
import { partSizeParams, previewSizeParams } from '../params/image-size.ts';
import { coverScaleParam, histogramParams, statisticsParams } from '../params/statistics.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { readFeature } from './feature-read.ts';
import { postProcessFor } from './image-output.ts';

export interface StatisticsRouteOptions {
  /** GET /statistics over the whole dataset (false for granule mosaics: the world has no preview). */
  withGet?: boolean;
}

export function registerStatisticsRoutes<D extends ParamDefs>(
  app: FastifyInstance,
  registry: RouteRegistry,
  backend: ImageBackend<D>,
  maxSide: number,
  options: StatisticsRouteOptions = {},
): void {
  const { prefix } = backend;
  const tags = [backend.tag];
  const common = { ...backend.params, ...datasetParams, ...algorithmParams, ...statisticsParams, ...histogramParams };

  if (options.withGet ?? true) registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/statistics`,
    operationId: `${prefix.slice(1)}_statistics`,
    summary: 'Statistics of the dataset (computed on a preview of the whole dataset, max_size 1024 by default).',
    tags,
    params: { ...common, ...previewSizeParams(maxSide) },
    responses: { 200: { description: 'Statistics per band, keyed by band name.', content: { 'application/json': {} } } },
    handler: async ({ params: p, signal }) => {
      const post = postProcessFor(p);
      const reader = await backend.open(p, signal);
      const sized = p.width || p.height;
      const img = await reader.preview({ ...readOptions(p), maxSize: sized ? undefined : p.max_size, width: p.width, height: p.height }, signal);
      return { kind: 'json', data: imageStatistics(post(img), statisticsOptions(p)) };
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
    responses: { 200: { description: 'The input, with `properties.statistics` in each feature.', content: { 'application/geo+json': {} } } },
    handler: async ({ params: p, body, signal }) => {
      const input = parseFeatureOrCollection(body);
      const post = postProcessFor(p);
      const reader = await backend.open(p, signal);
      const coordCrs = p.coord_crs ?? WGS84;
      const dstCrs = p.dst_crs ?? coordCrs;
      const features = input.type === 'FeatureCollection' ? input.features : [input];
      for (const feature of features) {
        const request = {
          ...readOptions(p),
          dstCrs,
          maxSize: p.width && p.height ? undefined : p.max_size,
          width: p.width,
          height: p.height,
          alignBoundsWithDataset: true,
        };
        const { cut, pixels, used } = await readFeature(reader, request, feature.geometry, coordCrs, signal);
        const coverage = coverageFractions(pixels, cut.width, cut.height, p.cover_scale);
        const processed = post(cut);
        if (processed.width !== cut.width || processed.height !== cut.height) {
          throw Errors.badRequest(`algorithm '${p.algorithm}' changes the image size; use it with GET /statistics or without coverage`);
        }
        feature.properties = {
          ...(feature.properties ?? {}),
          statistics: imageStatistics(processed, { ...statisticsOptions(p), coverage }),
          ...(used ? { used_assets: used } : {}),
        };
      }
      return { kind: 'json', contentType: 'application/geo+json', data: input };
    },
  });
}

export function readOptions(p: { nodata?: number; unscale: boolean; resampling: ReadOptions['resampling']; reproject: ReadOptions['reproject'] }): ReadOptions {
  return { nodata: p.nodata, unscale: p.unscale, resampling: p.resampling, reproject: p.reproject };
}

export function statisticsOptions(p: {
  categorical: boolean;
  c?: number[];
  p: number[];
  histogram_bins?: number | number[];
  histogram_range?: [number, number];
}): StatisticsOptions {
  return { categorical: p.categorical, categories: p.c, percentiles: p.p, histogramBins: p.histogram_bins ?? 10, histogramRange: p.histogram_range };
}
