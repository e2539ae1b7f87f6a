/** GET /statistics (whole dataset at max_size) and POST /statistics (inside GeoJSON features). */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import { geoTransformFromBounds } from '../../geo/affine.ts';
import { WGS84 } from '../../geo/crs.ts';
import { geometryBounds, toPixelSpace, transformGeometry, type Geometry } from '../../geo/geometry.ts';
import type { ImageData } from '../../raster/image-data.ts';
import { imageStatistics } from '../../raster/image-statistics.ts';
import { toPixelGeometry } from '../../raster/pixel-geometry.ts';
import { coverageFractions, rasterizeAllTouched } from '../../raster/rasterize.ts';
import type { StatisticsOptions } from '../../raster/statistics.ts';
import type { ReadOptions } from '../../readers/read-options.ts';
import { parseFeatureOrCollection, type Feature } from '../geojson-body.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { coordCrsParam, dstCrsParam } from '../params/crs.ts';
import { datasetParams } from '../params/dataset.ts';
import { partSizeParams, previewSizeParams } from '../params/image-size.ts';
import { coverScaleParam, histogramParams, statisticsParams } from '../params/statistics.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { postProcessFor } from './image-output.ts';

export function registerStatisticsRoutes<D extends ParamDefs>(app: FastifyInstance, registry: RouteRegistry, backend: ImageBackend<D>, maxSide: number): void {
  const { prefix } = backend;
  const tags = [backend.tag];
  const common = { ...backend.params, ...datasetParams, ...algorithmParams, ...statisticsParams, ...histogramParams };

  registerRoute(app, registry, {
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
        const img = await reader.part(
          {
            ...readOptions(p),
            bounds: geometryBounds(feature.geometry),
            boundsCrs: coordCrs,
            dstCrs,
            maxSize: p.width && p.height ? undefined : p.max_size,
            width: p.width,
            height: p.height,
            alignBoundsWithDataset: true,
          },
          signal,
        );
        const { cut, pixels } = cutToGeometry(img, feature.geometry, coordCrs);
        const coverage = coverageFractions(pixels, img.width, img.height, p.cover_scale);
        const processed = post(cut);
        if (processed.width !== img.width || processed.height !== img.height) {
          throw Errors.badRequest(`algorithm '${p.algorithm}' changes the image size; use it with GET /statistics or without coverage`);
        }
        setStatistics(feature, imageStatistics(processed, { ...statisticsOptions(p), coverage }));
      }
      return { kind: 'json', contentType: 'application/geo+json', data: input };
    },
  });
}

/** Masks the pixels the geometry does not touch (rasterize all_touched, like rio-tiler's feature()). */
export function cutToGeometry(img: ImageData, geometry: Geometry, geometryCrs: ImageData['crs']): { cut: ImageData; pixels: ReturnType<typeof toPixelGeometry> } {
  const gt = geoTransformFromBounds(img.bounds, img.width, img.height);
  const pixels = toPixelGeometry(toPixelSpace(transformGeometry(geometry, geometryCrs, img.crs), gt));
  const cutline = rasterizeAllTouched(pixels, img.width, img.height);
  const shared = new Map<Uint8Array, Uint8Array>();
  const masks = img.masks.map((m) => {
    let out = shared.get(m);
    if (!out) {
      out = new Uint8Array(m.length);
      for (let i = 0; i < m.length; i++) out[i] = m[i] & cutline[i];
      shared.set(m, out);
    }
    return out;
  });
  return { cut: { ...img, masks }, pixels };
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

function setStatistics(feature: Feature, stats: unknown): void {
  feature.properties = { ...(feature.properties ?? {}), statistics: stats };
}
