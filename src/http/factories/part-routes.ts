/** Image endpoints other than tiles: point values, previews, bbox crops and feature crops. */
import type { FastifyInstance } from 'fastify';
import { WGS84 } from '../../geo/crs.ts';
import { IMAGE_FORMATS } from '../../raster/render/index.ts';
import { pointValues } from '../../readers/image-reader.ts';
import { parseFeature } from '../geojson-body.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { bboxPathParams, lonLatPathParams } from '../params/coordinates.ts';
import { coordCrsParam, dstCrsParam } from '../params/crs.ts';
import { datasetParams, readOptions } from '../params/dataset.ts';
import { imageFormatPathParam } from '../params/format.ts';
import { partSize, partSizeParams, previewSize, previewSizeParams } from '../params/image-size.ts';
import { colormapParams, renderParams } from '../params/render.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import { P, type ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { IMAGE_RESPONSE, imageResponse, postProcessFor } from './image-output.ts';
import { readFeature } from './feature-read.ts';
import { readBbox } from './bbox-read.ts';
import { schemaRef } from '../openapi-schemas.ts';

export function registerPartRoutes<D extends ParamDefs>(app: FastifyInstance, registry: RouteRegistry, backend: ImageBackend<D>, maxSide: number): void {
  const { prefix } = backend;
  const tags = [backend.tag];
  const op = prefix.slice(1);
  const sizePath = {
    width: P.int().gt(0).le(maxSide).path().describe('Output width.'),
    height: P.int().gt(0).le(maxSide).path().describe('Output height.'),
  };
  const imageParams = { ...backend.params, ...datasetParams, ...algorithmParams, ...colormapParams, ...renderParams };

  if (!backend.ownPointRoute)
    registerRoute(app, registry, {
      method: 'GET',
      path: `${prefix}/point/{lon},{lat}`,
      operationId: `${op}_point`,
      summary: 'Get point values from the dataset.',
      tags,
      params: {
        ...lonLatPathParams,
        ...backend.params,
        ...coordCrsParam,
        ...datasetParams,
      },
      responses: { 200: { description: 'Point values.', content: { 'application/json': schemaRef('Point') } } },
      handler: async ({ params: p, signal }) => {
        const reader = await backend.open(p, signal);
        const v = pointValues(await reader.point(p.lon, p.lat, p.coord_crs ?? WGS84, readOptions(p), signal), [p.lon, p.lat]);
        return {
          kind: 'json',
          data: { coordinates: v.coordinates, values: v.values, band_names: v.bandNames, band_descriptions: v.bandDescriptions },
        };
      },
    });

  // Previews: /preview, /preview.{format}, /preview/{width}x{height}.{format}
  const previewVariants: Array<{ path: string; id: string; extra: ParamDefs }> = [
    { path: `${prefix}/preview/{width}x{height}.{format}`, id: `${op}_preview_sized`, extra: { ...sizePath, ...imageFormatPathParam } },
    { path: `${prefix}/preview.{format}`, id: `${op}_preview_format`, extra: { ...imageFormatPathParam, ...previewSizeParams(maxSide) } },
    { path: `${prefix}/preview`, id: `${op}_preview`, extra: { ...previewSizeParams(maxSide) } },
  ];
  for (const v of (backend.wholeDatasetPreview ?? true) ? previewVariants : []) {
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
        const img = await reader.preview({ ...readOptions(p), ...previewSize(p), dstCrs: p.dst_crs }, signal);
        return imageResponse(await post(img), p.format, p);
      },
    });
  }

  // Bbox crops: /bbox/{minx},{miny},{maxx},{maxy}.{format} and …/{width}x{height}.{format}
  const bboxVariants: Array<{ path: string; id: string; extra: ParamDefs }> = [
    {
      path: `${prefix}/bbox/{minx},{miny},{maxx},{maxy}/{width}x{height}.{format}`,
      id: `${op}_bbox_sized`,
      extra: { ...bboxPathParams, ...sizePath, ...imageFormatPathParam },
    },
    {
      path: `${prefix}/bbox/{minx},{miny},{maxx},{maxy}.{format}`,
      id: `${op}_bbox`,
      extra: { ...bboxPathParams, ...imageFormatPathParam, ...partSizeParams(maxSide) },
    },
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
        const img = await readBbox(reader, p, [p.minx, p.miny, p.maxx, p.maxy], signal);
        return imageResponse(await post(img), p.format, p);
      },
    });
  }

  // Feature crops: POST /feature, /feature.{format}, /feature/{width}x{height}.{format}
  const featureVariants: Array<{ path: string; id: string; extra: ParamDefs }> = [
    { path: `${prefix}/feature/{width}x{height}.{format}`, id: `${op}_feature_sized`, extra: { ...sizePath, ...imageFormatPathParam } },
    { path: `${prefix}/feature.{format}`, id: `${op}_feature_format`, extra: { ...imageFormatPathParam, ...partSizeParams(maxSide) } },
    {
      path: `${prefix}/feature`,
      id: `${op}_feature`,
      extra: {
        format: P.enumeration(IMAGE_FORMATS).describe('Output image type (default: PNG when any pixel is masked, else JPEG).'),
        ...partSizeParams(maxSide),
      },
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
          ...partSize(p),
        };
        const { cut } = await readFeature(reader, request, feature.geometry, coordCrs, signal);
        return imageResponse(await post(cut), p.format, p);
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
