/**
 * Dataset-level endpoints of the /cog router (TiTiler TilerFactory): info, info.geojson,
 * statistics (GET and POST over GeoJSON), tile set list and tile set metadata.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { crsUri, WGS84 } from '../../geo/crs.ts';
import { geometryBounds, toPixelSpace, transformGeometry } from '../../geo/geometry.ts';
import { geoTransformFromBounds } from '../../geo/affine.ts';
import { getTileMatrixSet, TMS_IDS } from '../../geo/tms.ts';
import { imageStatistics } from '../../raster/image-statistics.ts';
import { toPixelGeometry } from '../../raster/pixel-geometry.ts';
import { coverageFractions, rasterizeAllTouched } from '../../raster/rasterize.ts';
import type { StatisticsOptions } from '../../raster/statistics.ts';
import { cogInfo } from '../../readers/cog/info.ts';
import { layerFromParams, readLayer } from '../../readers/layer.ts';
import type { ReadOptions } from '../../readers/read-options.ts';
import { parseFeatureOrCollection, type Feature } from '../geojson-body.ts';
import { tileSetListPage, tileSetPage } from '../pages/tileset-pages.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { crsParam, coordCrsParam, dstCrsParam } from '../params/crs.ts';
import { bidxExpressionParams, datasetParams, urlParam } from '../params/dataset.ts';
import { fParam, wantsHtml } from '../params/format.ts';
import { partSizeParams, previewSizeParams } from '../params/image-size.ts';
import { coverScaleParam, histogramParams, statisticsParams } from '../params/statistics.ts';
import { tmsPathParam } from '../params/tms.ts';
import { queryString } from '../query-string.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { P } from '../validation/params.ts';

const JSON_MEDIA = { 'application/json': {} };

export function registerCogDatasetRoutes(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix = '/cog'): void {
  const maxSide = services.config.limits.maxImageSide;
  const tags = ['Cloud Optimized GeoTIFF'];

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info`,
    operationId: 'cog_info',
    summary: 'Return dataset basic info.',
    tags,
    params: { ...urlParam },
    responses: { 200: { description: 'Dataset info.', content: JSON_MEDIA } },
    handler: async ({ params, signal }) => {
      const reader = await services.openCog(params.url, signal);
      return { kind: 'json', data: cogInfo(reader.ds) };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info.geojson`,
    operationId: 'cog_info_geojson',
    summary: 'Return dataset info as a GeoJSON Feature.',
    tags,
    params: { ...urlParam, ...crsParam },
    responses: { 200: { description: 'GeoJSON Feature with the dataset footprint.', content: { 'application/geo+json': {} } } },
    handler: async ({ params, signal }) => {
      const reader = await services.openCog(params.url, signal);
      const b = reader.boundsIn(params.crs ?? WGS84);
      return {
        kind: 'json',
        contentType: 'application/geo+json',
        data: { type: 'Feature', bbox: b, geometry: footprint(b), properties: cogInfo(reader.ds) },
      };
    },
  });

  const statisticsCommon = {
    ...urlParam,
    ...bidxExpressionParams,
    ...datasetParams,
    ...algorithmParams,
    ...statisticsParams,
    ...histogramParams,
  };

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/statistics`,
    operationId: 'cog_statistics',
    summary: 'Dataset statistics (computed on a preview of the whole dataset).',
    tags,
    params: { ...statisticsCommon, ...previewSizeParams(maxSide) },
    responses: { 200: { description: 'Statistics per band.', content: JSON_MEDIA } },
    handler: async ({ params: p, signal }) => {
      rejectAlgorithm(p.algorithm);
      const reader = await services.openCog(p.url, signal);
      const layer = layerFromParams(p.bidx, p.expression);
      const sized = p.width || p.height;
      const img = await readLayer(layer, (indexes) =>
        reader.preview({ ...readOptions(p), indexes, maxSize: sized ? undefined : p.max_size, width: p.width, height: p.height }, signal),
      );
      return { kind: 'json', data: imageStatistics(img, statisticsOptions(p)) };
    },
  });

  registerRoute(app, registry, {
    method: 'POST',
    path: `${prefix}/statistics`,
    operationId: 'cog_geojson_statistics',
    summary: 'Statistics of the dataset within GeoJSON features (coverage-weighted).',
    tags,
    params: { ...statisticsCommon, ...coordCrsParam, ...dstCrsParam, ...partSizeParams(maxSide), ...coverScaleParam },
    body: {
      required: true,
      description: 'GeoJSON Feature or FeatureCollection.',
      schema: { oneOf: [{ $ref: '#/components/schemas/Feature' }, { $ref: '#/components/schemas/FeatureCollection' }] },
    },
    responses: { 200: { description: 'The input with statistics in each feature properties.', content: { 'application/geo+json': {} } } },
    handler: async ({ params: p, body, signal }) => {
      rejectAlgorithm(p.algorithm);
      const input = parseFeatureOrCollection(body);
      const reader = await services.openCog(p.url, signal);
      const layer = layerFromParams(p.bidx, p.expression);
      const coordCrs = p.coord_crs ?? WGS84;
      const dstCrs = p.dst_crs ?? coordCrs;
      const features = input.type === 'FeatureCollection' ? input.features : [input];
      for (const feature of features) {
        const img = await readLayer(layer, (indexes) =>
          reader.part(
            {
              ...readOptions(p),
              indexes,
              bounds: geometryBounds(feature.geometry),
              boundsCrs: coordCrs,
              dstCrs,
              maxSize: p.width && p.height ? undefined : p.max_size,
              width: p.width,
              height: p.height,
              alignBoundsWithDataset: true,
            },
            signal,
          ),
        );
        const gt = geoTransformFromBounds(img.bounds, img.width, img.height);
        const pixels = toPixelGeometry(toPixelSpace(transformGeometry(feature.geometry, coordCrs, img.crs), gt));
        const cutline = rasterizeAllTouched(pixels, img.width, img.height);
        const masks = img.masks.map((m) => {
          const out = new Uint8Array(m.length);
          for (let i = 0; i < m.length; i++) out[i] = m[i] & cutline[i];
          return out;
        });
        const coverage = coverageFractions(pixels, img.width, img.height, p.cover_scale);
        const stats = imageStatistics({ ...img, masks }, { ...statisticsOptions(p), coverage });
        setStatistics(feature, stats);
      }
      return { kind: 'json', contentType: 'application/geo+json', data: input };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/tiles`,
    operationId: 'cog_tilesets',
    summary: 'Retrieve a list of available raster tilesets for the dataset.',
    tags,
    params: { ...urlParam, ...crsParam, ...fParam },
    responses: { 200: { description: 'TileSet list.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params: p, request, baseUrl, signal }) => {
      const reader = await services.openCog(p.url, signal);
      const crs = p.crs ?? WGS84;
      const b = reader.boundsIn(crs);
      const qs = queryString(request.url, ['crs']);
      const tilesets = TMS_IDS.map((id) => {
        const tms = getTileMatrixSet(id);
        return {
          title: `tileset tiled using ${id} TileMatrixSet`,
          dataType: 'map',
          crs: tms.crsString,
          boundingBox: { lowerLeft: [b[0], b[1]], upperRight: [b[2], b[3]], crs: crsUri(crs) ?? crs.id },
          links: [
            { href: `${baseUrl}${prefix}/tiles/${id}${qs}`, rel: 'self', type: 'application/json', title: `Tileset tiled using ${id} TileMatrixSet` },
            { href: `${baseUrl}${prefix}/tiles/${id}/{z}/{x}/{y}${qs}`, rel: 'tile', title: 'Templated link for retrieving Raster tiles' },
            {
              href: `${baseUrl}/tileMatrixSets/${id}`,
              rel: 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme',
              type: 'application/json',
              title: `Definition of '${id}' tileMatrixSet`,
            },
          ],
          accessConstraints: 'unclassified',
        };
      });
      const data = { tilesets };
      if (wantsHtml(p.f, request.headers.accept)) return { kind: 'body', contentType: 'text/html; charset=utf-8', body: tileSetListPage(data) };
      return { kind: 'json', data };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/tiles/{tileMatrixSetId}`,
    operationId: 'cog_tileset',
    summary: 'Retrieve the raster tileset metadata for the dataset and the specified tiling scheme.',
    tags,
    params: {
      ...tmsPathParam,
      ...urlParam,
      minzoom: P.int().describe('Overwrite default minzoom.'),
      maxzoom: P.int().describe('Overwrite default maxzoom.'),
      ...fParam,
    },
    responses: { 200: { description: 'TileSet metadata.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params: p, request, baseUrl, signal }) => {
      const reader = await services.openCog(p.url, signal);
      const tms = getTileMatrixSet(p.tileMatrixSetId);
      const zooms = reader.zoomRange(tms);
      const minzoom = p.minzoom ?? zooms.minzoom;
      const maxzoom = p.maxzoom ?? zooms.maxzoom;
      const b = reader.boundsIn(tms.geographicCrs);
      const qs = queryString(request.url, []);
      const id = tms.id;
      const data = {
        title: `tileset tiled using ${id} TileMatrixSet`,
        dataType: 'map',
        crs: tms.crsString,
        boundingBox: { lowerLeft: [b[0], b[1]], upperRight: [b[2], b[3]], crs: crsUri(tms.geographicCrs) ?? tms.geographicCrs.id },
        links: [
          { href: `${baseUrl}${prefix}/tiles/${id}${qs}`, rel: 'self', type: 'application/json', title: `Tileset tiled using ${id} TileMatrixSet` },
          { href: `${baseUrl}${prefix}/tiles/${id}/{z}/{x}/{y}${qs}`, rel: 'tile', title: 'Templated link for retrieving Raster tiles', templated: true },
          {
            href: `${baseUrl}/tileMatrixSets/${id}`,
            rel: 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme',
            type: 'application/json',
            title: `Definition of '${id}' tileMatrixSet`,
          },
          { href: `${baseUrl}${prefix}/${id}/map.html${qs}`, rel: 'data', type: 'text/html', title: `Map viewer for '${id}' tileMatrixSet` },
        ],
        tileMatrixSetLimits: tms.limits(b, Math.max(minzoom, tms.minzoom), maxzoom),
        accessConstraints: 'unclassified',
      };
      if (wantsHtml(p.f, request.headers.accept)) return { kind: 'body', contentType: 'text/html; charset=utf-8', body: tileSetPage(data) };
      return { kind: 'json', data };
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
  return {
    categorical: p.categorical,
    categories: p.c,
    percentiles: p.p,
    histogramBins: p.histogram_bins ?? 10,
    histogramRange: p.histogram_range,
  };
}

function rejectAlgorithm(algorithm: string | undefined): void {
  if (algorithm !== undefined) throw Errors.notImplemented(`algorithm '${algorithm}' is not implemented yet`);
}

function setStatistics(feature: Feature, stats: unknown): void {
  feature.properties = { ...(feature.properties ?? {}), statistics: stats };
}

/** Polygon of the bounds, or a MultiPolygon split at the antimeridian when west > east. */
export function footprint(b: Bounds): { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] } {
  const box = (w: number, s: number, e: number, n: number): number[][] => [[w, s], [e, s], [e, n], [w, n], [w, s]];
  if (b[0] > b[2]) return { type: 'MultiPolygon', coordinates: [[box(-180, b[1], b[2], b[3])], [box(b[0], b[1], 180, b[3])]] };
  return { type: 'Polygon', coordinates: [box(b[0], b[1], b[2], b[3])] };
}
