/** Image endpoints other than tiles: point values, previews, bbox crops and feature crops. */
import type { FastifyInstance } from 'fastify';
import { WGS84 } from '../../geo/crs.ts';
import { IMAGE_FORMATS, mediaType } from '../../raster/render/index.ts';
import { parseFeature } from '../geojson-body.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { coordCrsParam, dstCrsParam } from '../params/crs.ts';
import { datasetParams } from '../params/dataset.ts';
import { partSizeParams, previewSizeParams } from '../params/image-size.ts';
import { colormapParams, renderParams } from '../params/render.ts';
import { registerRoute, type ResponseDoc, type RouteRegistry } from '../route.ts';
import { P, type ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { imageResponse, postProcessFor } from './image-output.ts';
import { readFeature } from './feature-read.ts';
import { readOptions } from './statistics-routes.ts';

const IMAGE_RESPONSE: Record<number, ResponseDoc> = {
  200: { description: 'Return an image.', content: Object.fromEntries([...new Set(IMAGE_FORMATS.map(mediaType))].map((m) => [m, {}])) },
};

export interface PartRouteOptions {
  /** Whole-dataset previews (false for granule mosaics). */
  preview?: boolean;
  /** The single-image point route (granule mosaics answer per granule instead). */
  point?: boolean;
}

export function registerPartRoutes<D extends ParamDefs>(
  app: FastifyInstance,
  registry: RouteRegistry,
  backend: ImageBackend<D>,
  maxSide: number,
  options: PartRouteOptions = {},
): void {
  const { prefix } = backend;
  const tags = [backend.tag];
  const op = prefix.slice(1);
  const formatPath = { format: P.enumeration(IMAGE_FORMATS).path().describe('Output image type.') };
  const sizePath = {
    width: P.int().gt(0).le(maxSide).path().describe('Output width.'),
    height: P.int().gt(0).le(maxSide).path().describe('Output height.'),
  };
  const imageParams = { ...backend.params, ...datasetParams, ...algorithmParams, ...colormapParams, ...renderParams };

  if (options.point ?? true) registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/point/{lon},{lat}`,
    operationId: `${op}_point`,
    summary: 'Get point values from the dataset.',
    tags,
    params: {
      lon: P.float().path().describe('Longitude (or X in coord_crs).'),
      lat: P.float().path().describe('Latitude (or Y in coord_crs).'),
      ...backend.params,
      ...coordCrsParam,
      ...datasetParams,
    },
    responses: { 200: { description: 'Point values.', content: { 'application/json': {} } } },
    handler: async ({ params: p, signal }) => {
      const reader = await backend.open(p, signal);
      const v = await reader.point(p.lon, p.lat, p.coord_crs ?? WGS84, readOptions(p), signal);
      return {
        kind: 'json',
        data: { coordinates: v.coordinates, values: v.values, band_names: v.bandNames, band_descriptions: v.bandDescriptions },
      };
    },
  });

  // Previews: /preview, /preview.{format}, /preview/{width}x{height}.{format}
  const previewVariants: Array<{ path: string; id: string; extra: ParamDefs; sized: boolean }> = [
    { path: `${prefix}/preview/{width}x{height}.{format}`, id: `${op}_preview_sized`, extra: { ...sizePath, ...formatPath }, sized: true },
    { path: `${prefix}/preview.{format}`, id: `${op}_preview_format`, extra: { ...formatPath, ...previewSizeParams(maxSide) }, sized: false },
    { path: `${prefix}/preview`, id: `${op}_preview`, extra: { ...previewSizeParams(maxSide) }, sized: false },
  ];
  for (const v of options.preview ?? true ? previewVariants : []) {
    registerRoute(app, registry, {
      method: 'GET',
      path: v.path,
      operationId: v.id,
      summary: 'Create a preview of the whole dataset.',
      tags,
      params: { ...v.extra, ...imageParams, ...dstCrsParam },
      responses: IMAGE_RESPONSE,
      handler: async ({ params, signal }) => {
        const p = params as typeof params & SizeAndFormat;
        const post = postProcessFor(p);
        const reader = await backend.open(p, signal);
        const sized = v.sized || p.width || p.height;
        const img = await reader.preview({ ...readOptions(p), maxSize: sized ? undefined : p.max_size, width: p.width, height: p.height, dstCrs: p.dst_crs }, signal);
        return imageResponse(post(img), p.format, p);
      },
    });
  }

  // Bbox crops: /bbox/{minx},{miny},{maxx},{maxy}.{format} and …/{width}x{height}.{format}
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
      summary: 'Create an image from part of the dataset.',
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

  // Feature crops: POST /feature, /feature.{format}, /feature/{width}x{height}.{format}
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
      summary: 'Create an image from a GeoJSON feature (pixels outside the geometry are masked).',
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
        const request = {
          ...readOptions(p),
          dstCrs: p.dst_crs ?? coordCrs,
          maxSize: v.sized || (p.width && p.height) ? undefined : p.max_size,
          width: p.width,
          height: p.height,
        };
        const { cut } = await readFeature(reader, request, feature.geometry, coordCrs, signal);
        return imageResponse(post(cut), p.format, p);
      },
    });
  }
}

interface SizeAndFormat {
  width?: number;
  height?: number;
  max_size?: number;
  format?: (typeof IMAGE_FORMATS)[number];
}
