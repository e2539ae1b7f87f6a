/**
 * The /raster endpoints whose answers differ from the single-dataset ones (titiler-cmr §2.2):
 *
 * - GET  /point/{lon},{lat}: one entry per granule containing the point, not a mosaic:
 *   `{"coordinates":[lon,lat],"assets":[{"name":<granule_ur>,"values","band_names","band_descriptions"}…]}`;
 * - GET  /bbox/{minx},{miny},{maxx},{maxy}.{format} and …/{width}x{height}.{format}: mosaic of the box;
 * - POST /feature, /feature.{format}, /feature/{width}x{height}.{format}: mosaic of the geometry's
 *   bounds, pixels outside it masked; `first` stops once the inside is filled;
 * - POST /statistics (no GET): per feature its own search and mosaic at native resolution (aligned
 *   to the first granule's grid) unless a size is given, coverage-weighted statistics, and
 *   `properties.used_assets` = the granule_urs read.
 *
 * No preview and no GET statistics: a mosaic of the whole world has no meaning here.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import { WGS84 } from '../../geo/crs.ts';
import { geometryBounds } from '../../geo/geometry.ts';
import { imageStatistics } from '../../raster/image-statistics.ts';
import { coverageFractions } from '../../raster/rasterize.ts';
import { IMAGE_FORMATS, mediaType } from '../../raster/render/index.ts';
import { parseFeature, parseFeatureOrCollection } from '../geojson-body.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { coordCrsParam, dstCrsParam } from '../params/crs.ts';
import { datasetParams } from '../params/dataset.ts';
import { partSizeParams } from '../params/image-size.ts';
import { colormapParams, renderParams } from '../params/render.ts';
import { coverScaleParam, histogramParams, statisticsParams } from '../params/statistics.ts';
import { registerRoute, type ResponseDoc, type RouteRegistry } from '../route.ts';
import { P, type ParamDefs } from '../validation/params.ts';
import type { GranuleBackend } from './granule-raster-router.ts';
import { imageResponse, postProcessFor } from './image-output.ts';
import { cutToGeometry, readOptions, statisticsOptions } from './statistics-routes.ts';

const IMAGE_RESPONSE: Record<number, ResponseDoc> = {
  200: { description: 'Return an image.', content: Object.fromEntries([...new Set(IMAGE_FORMATS.map(mediaType))].map((m) => [m, {}])) },
  204: { description: 'No granule found, or none has data in the area.' },
};

interface SizeAndFormat {
  width?: number;
  height?: number;
  max_size?: number;
  format?: (typeof IMAGE_FORMATS)[number];
}

export function registerGranuleRasterPartRoutes(app: FastifyInstance, registry: RouteRegistry, backend: GranuleBackend, maxSide: number): void {
  const { prefix } = backend;
  const tags = [backend.tag];
  const op = prefix.slice(1);
  const formatPath = { format: P.enumeration(IMAGE_FORMATS).path().describe('Output image type.') };
  const sizePath = {
    width: P.int().gt(0).le(maxSide).path().describe('Output width.'),
    height: P.int().gt(0).le(maxSide).path().describe('Output height.'),
  };
  const imageParams = { ...backend.params, ...datasetParams, ...algorithmParams, ...colormapParams, ...renderParams };

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/point/{lon},{lat}`,
    operationId: `${op}_point`,
    summary: 'Values at a point, per granule that contains it (CMR order).',
    tags,
    params: {
      lon: P.float().path().describe('Longitude (or X in coord_crs).'),
      lat: P.float().path().describe('Latitude (or Y in coord_crs).'),
      ...backend.params,
      ...coordCrsParam,
      ...datasetParams,
    },
    responses: {
      200: { description: 'Point values per granule.', content: { 'application/json': {} } },
      204: { description: 'No granule found, or none contains the point.' },
    },
    handler: async ({ params: p, signal }) => {
      const reader = await backend.open(p, signal);
      const found = await reader.pointEach(p.lon, p.lat, p.coord_crs ?? WGS84, readOptions(p), signal);
      return {
        kind: 'json',
        data: {
          coordinates: [p.lon, p.lat],
          assets: found.map((v) => ({ name: v.granule.granuleUr, values: v.values, band_names: v.bandNames, band_descriptions: v.bandDescriptions })),
        },
      };
    },
  });

  const bboxPath = { minx: P.float().path(), miny: P.float().path(), maxx: P.float().path(), maxy: P.float().path() };
  const bboxVariants: Array<{ path: string; id: string; extra: ParamDefs; sized: boolean }> = [
    { path: `${prefix}/bbox/{minx},{miny},{maxx},{maxy}/{width}x{height}.{format}`, id: `${op}_bbox_sized`, extra: { ...bboxPath, ...sizePath, ...formatPath }, sized: true },
    { path: `${prefix}/bbox/{minx},{miny},{maxx},{maxy}.{format}`, id: `${op}_bbox`, extra: { ...bboxPath, ...formatPath, ...partSizeParams(maxSide) }, sized: false },
  ];
  for (const v of bboxVariants) {
    registerRoute(app, registry, {
      method: 'GET',
      path: v.path,
      operationId: v.id,
      summary: 'Mosaic of the granules in a bounding box.',
      tags,
      params: { ...v.extra, ...imageParams, ...coordCrsParam, ...dstCrsParam },
      responses: IMAGE_RESPONSE,
      handler: async ({ params, signal }) => {
        const p = params as typeof params & SizeAndFormat & { minx: number; miny: number; maxx: number; maxy: number };
        const post = postProcessFor(p);
        const reader = await backend.open(p, signal);
        const coordCrs = p.coord_crs ?? WGS84;
        const img = await reader.part(
          {
            ...readOptions(p),
            bounds: [p.minx, p.miny, p.maxx, p.maxy],
            boundsCrs: coordCrs,
            dstCrs: p.dst_crs ?? coordCrs,
            maxSize: v.sized || (p.width && p.height) ? undefined : p.max_size,
            width: p.width,
            height: p.height,
          },
          signal,
        );
        return imageResponse(post(img), p.format, p);
      },
    });
  }

  const featureVariants: Array<{ path: string; id: string; extra: ParamDefs; sized: boolean }> = [
    { path: `${prefix}/feature/{width}x{height}.{format}`, id: `${op}_feature_sized`, extra: { ...sizePath, ...formatPath }, sized: true },
    { path: `${prefix}/feature.{format}`, id: `${op}_feature_format`, extra: { ...formatPath, ...partSizeParams(maxSide) }, sized: false },
    {
      path: `${prefix}/feature`,
      id: `${op}_feature`,
      extra: { format: P.enumeration(IMAGE_FORMATS).describe('Output image type (default: PNG when any pixel is masked, else JPEG).'), ...partSizeParams(maxSide) },
      sized: false,
    },
  ];
  for (const v of featureVariants) {
    registerRoute(app, registry, {
      method: 'POST',
      path: v.path,
      operationId: v.id,
      summary: 'Mosaic of the granules under a GeoJSON feature (pixels outside the geometry are masked).',
      tags,
      params: { ...v.extra, ...imageParams, ...coordCrsParam, ...dstCrsParam },
      body: { required: true, description: 'GeoJSON Feature.', schema: { $ref: '#/components/schemas/Feature' } },
      responses: IMAGE_RESPONSE,
      handler: async ({ params, body, signal }) => {
        const p = params as typeof params & SizeAndFormat;
        const feature = parseFeature(body);
        const post = postProcessFor(p);
        const reader = await backend.open(p, signal);
        const coordCrs = p.coord_crs ?? WGS84;
        const { image } = await reader.partMosaic(
          {
            ...readOptions(p),
            bounds: geometryBounds(feature.geometry),
            boundsCrs: coordCrs,
            dstCrs: p.dst_crs ?? coordCrs,
            maxSize: v.sized || (p.width && p.height) ? undefined : p.max_size,
            width: p.width,
            height: p.height,
          },
          { geometry: feature.geometry, crs: coordCrs },
          signal,
        );
        const { cut } = cutToGeometry(image, feature.geometry, coordCrs);
        return imageResponse(post(cut), p.format, p);
      },
    });
  }

  registerRoute(app, registry, {
    method: 'POST',
    path: `${prefix}/statistics`,
    operationId: `${op}_geojson_statistics`,
    summary: 'Statistics of the granule mosaic inside GeoJSON features (one search per feature), weighted by pixel coverage.',
    tags,
    params: {
      ...backend.params,
      ...datasetParams,
      ...algorithmParams,
      ...statisticsParams,
      ...histogramParams,
      ...coordCrsParam,
      ...dstCrsParam,
      ...partSizeParams(maxSide),
      ...coverScaleParam,
    },
    body: {
      required: true,
      description: 'GeoJSON Feature or FeatureCollection.',
      schema: { oneOf: [{ $ref: '#/components/schemas/Feature' }, { $ref: '#/components/schemas/FeatureCollection' }] },
    },
    responses: {
      200: { description: 'The input, with `properties.statistics` and `properties.used_assets` (granule_urs) in each feature.', content: { 'application/geo+json': {} } },
      204: { description: 'No granule found for a feature, or none has data there.' },
    },
    handler: async ({ params: p, body, signal }) => {
      const input = parseFeatureOrCollection(body);
      const post = postProcessFor(p);
      const reader = await backend.open(p, signal);
      const coordCrs = p.coord_crs ?? WGS84;
      const dstCrs = p.dst_crs ?? coordCrs;
      const features = input.type === 'FeatureCollection' ? input.features : [input];
      for (const feature of features) {
        const { image, used } = await reader.partMosaic(
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
          { geometry: feature.geometry, crs: coordCrs },
          signal,
        );
        const { cut, pixels } = cutToGeometry(image, feature.geometry, coordCrs);
        const coverage = coverageFractions(pixels, image.width, image.height, p.cover_scale);
        const processed = post(cut);
        if (processed.width !== image.width || processed.height !== image.height) {
          throw Errors.badRequest(`algorithm '${p.algorithm}' changes the image size; use it without coverage statistics`);
        }
        feature.properties = {
          ...(feature.properties ?? {}),
          statistics: imageStatistics(processed, { ...statisticsOptions(p), coverage }),
          used_assets: used.map((g) => g.granuleUr),
        };
      }
      return { kind: 'json', contentType: 'application/geo+json', data: input };
    },
  });
}
