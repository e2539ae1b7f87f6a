/** Tiles, TileJSON, the map page and WMTS capabilities (TiTiler 2.x semantics, `tilesize`). */
import type { FastifyInstance } from 'fastify';
import type { Bounds } from '../../geo/bounds.ts';
import { getTileMatrixSet, type TileMatrixLimits, type TileMatrixSet } from '../../geo/tms.ts';
import { IMAGE_FORMATS } from '../../raster/render/index.ts';
import { releaseImage } from '../../raster/image-data.ts';
import { mapPage } from '../pages/map-page.ts';
import { wmtsCapabilities } from '../pages/wmts.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { datasetParams, readOptions } from '../params/dataset.ts';
import { imageFormatPathParam } from '../params/format.ts';
import { colormapParams, renderParams } from '../params/render.ts';
import { tileBufferParams, tileJsonParams, tileRowParam, tilesizeParam } from '../params/tile.ts';
import { defaultTmsQueryParam, tmsPathParam } from '../params/tms.ts';
import { encodePairs, queryPairs, queryString } from '../query-string.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import { P, type ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { IMAGE_RESPONSE, imageResponse, postProcessFor } from './image-output.ts';
import { TILEJSON_DROP, tileJsonDocument } from './tilejson-document.ts';
import { shortNumber } from '../../util/short-number.ts';
import { defaultRescale } from './map-default-rescale.ts';
import { schemaRef } from '../openapi-schemas.ts';

/** Query keys TiTiler drops from the WMTS tile URL template. */
const WMTS_DROP = ['tile_format', 'use_epsg', 'tilesize', 'zooms', 'service', 'request', 'acceptversions', 'sections', 'updatesequence', 'acceptformats'];

/** Zoom levels the map page's grid viewer knows at most (user-given maxzoom can be anything). */
const MAX_MAP_ZOOMS = 64;

/** The dataset's tile limits for the map page, zoom by zoom, leaving out zooms the TMS cannot define. */
function mapLimits(tms: TileMatrixSet, geographicBounds: Bounds, minzoom: number, maxzoom: number): TileMatrixLimits[] {
  const out: TileMatrixLimits[] = [];
  for (let z = Math.max(minzoom, tms.minzoom); z <= Math.min(maxzoom, tms.minzoom + MAX_MAP_ZOOMS); z++) {
    try {
      out.push(...tms.limits(geographicBounds, z, z));
    } catch {
      // zoom not defined (variable-width TMSs do not extrapolate): the viewer cannot show it
    }
  }
  return out;
}

export function registerTileRoutes<D extends ParamDefs>(app: FastifyInstance, registry: RouteRegistry, backend: ImageBackend<D>): void {
  const { prefix } = backend;
  const tags = [backend.tag];
  const op = prefix.slice(1);
  const tileParams = { ...backend.params, ...tileBufferParams, ...datasetParams, ...algorithmParams, ...colormapParams, ...renderParams };
  const zxy = {
    z: P.int().path().describe('Identifier (Z) selecting one of the scales defined in the TileMatrixSet.'),
    x: P.int().path().describe('Column (X) index of the tile on the selected TileMatrix.'),
    y: tileRowParam.path().describe('Row (Y) index of the tile on the selected TileMatrix.'),
  };

  for (const withFormat of [true, false]) {
    registerRoute(app, registry, {
      method: 'GET',
      path: `${prefix}/tiles/{tileMatrixSetId}/{z}/{x}/{y}${withFormat ? '.{format}' : ''}`,
      operationId: `${op}_tile${withFormat ? '_format' : ''}`,
      summary: 'Create a map tile.',
      description: withFormat ? undefined : 'Without a format the output is PNG when any pixel is masked, else JPEG.',
      tags,
      params: {
        ...tmsPathParam,
        ...zxy,
        ...(withFormat ? imageFormatPathParam : {}),
        ...tilesizeParam,
        ...tileParams,
      },
      responses: IMAGE_RESPONSE,
      handler: async ({ params, signal }) => {
        const p = params as typeof params & { format?: (typeof IMAGE_FORMATS)[number] };
        const tms = getTileMatrixSet(p.tileMatrixSetId);
        const post = postProcessFor(p);
        const reader = await backend.open(p, signal);
        tms.matrix(p.z); // 400 for zooms the TMS cannot define
        // reader.tile tests tileExists (once per tile) and answers TileOutsideBounds
        const img = await reader.tile(tms, p.x, p.y, p.z, { ...readOptions(p), tilesize: p.tilesize, buffer: p.buffer, padding: p.padding }, signal);
        const shown = await post(img);
        try {
          return await imageResponse(shown, p.format, p);
        } finally {
          // encoded: the pixels are read by no one any more
          releaseImage(img);
          if (shown !== img) releaseImage(shown);
        }
      },
    });
  }

  const tileJsonParamsAll = { ...tilesizeParam, ...tileJsonParams, ...tileParams };

  for (const inPath of [true, false]) {
    registerRoute(app, registry, {
      method: 'GET',
      path: inPath ? `${prefix}/{tileMatrixSetId}/tilejson.json` : `${prefix}/tilejson.json`,
      cacheKey: 'url', // tile URLs echo the query
      operationId: `${op}_tilejson${inPath ? '' : '_default_tms'}`,
      summary: 'Return a TileJSON 3.0.0 document.',
      tags,
      params: { ...(inPath ? tmsPathParam : defaultTmsQueryParam), ...tileJsonParamsAll },
      responses: { 200: { description: 'TileJSON.', content: { 'application/json': schemaRef('TileJSON') } } },
      handler: async ({ params: p, request, baseUrl, signal }) => {
        postProcessFor(p); // validate algorithm parameters, as tiles would
        const tms = getTileMatrixSet(p.tileMatrixSetId);
        const reader = await backend.open(p, signal);
        const data = tileJsonDocument(backend, p, reader, tms, queryPairs(request.url, TILEJSON_DROP), baseUrl);
        return { kind: 'json', data };
      },
    });
  }

  for (const inPath of [true, false]) {
    registerRoute(app, registry, {
      method: 'GET',
      path: inPath ? `${prefix}/{tileMatrixSetId}/map.html` : `${prefix}/map.html`,
      cacheKey: 'url',
      operationId: `${op}_map${inPath ? '' : '_default_tms'}`,
      summary: 'Map viewer of the dataset (MapLibre GL JS for WebMercatorQuad, a tile-grid viewer for the other TMSs).',
      tags,
      params: { ...(inPath ? tmsPathParam : defaultTmsQueryParam), ...tileJsonParamsAll },
      responses: { 200: { description: 'HTML page.', content: { 'text/html': {} } } },
      handler: async ({ params: p, request, baseUrl, signal }) => {
        postProcessFor(p);
        const reader = await backend.open(p, signal); // fail early (404/403/…) rather than serving a page of broken tiles
        const tmsId = p.tileMatrixSetId;
        const tms = getTileMatrixSet(tmsId);
        const zooms = reader.zoomRange(tms);
        const all = queryPairs(request.url, []);
        if (!all.some(([k]) => k === 'tilesize')) all.push(['tilesize', '256']);
        const pointDrop = [
          'tilesize',
          'tile_format',
          'minzoom',
          'maxzoom',
          'buffer',
          'padding',
          'colormap',
          'colormap_name',
          'tilematrixsetid',
          'rescale',
          'color_formula',
          'return_mask',
        ];
        // Data wider than 8 bits without rescale: a default from the statistics, said on the page.
        const given = (p.rescale?.length ?? 0) > 0 || p.color_formula !== undefined;
        const auto = given || !(backend.wholeDatasetPreview ?? true) ? null : await defaultRescale(reader, readOptions(p), postProcessFor(p), signal);
        if (auto) all.push(['rescale', `${shortNumber(auto.min)},${shortNumber(auto.max)}`]);
        const body = mapPage({
          title: backend.layerTitle(p),
          tms: tms.toJSON() as Record<string, unknown>,
          tilejsonUrl: `${baseUrl}${prefix}/${tmsId}/tilejson.json${encodePairs(all.filter(([k]) => k.toLowerCase() !== 'tilematrixsetid'))}`,
          pointUrl: `${baseUrl}${prefix}/point/{lon},{lat}${queryString(request.url, pointDrop)}`,
          staticBase: `${baseUrl}/static`,
          datasetBounds: reader.boundsIn(tms.crs),
          limits: mapLimits(tms, reader.boundsIn(tms.geographicCrs), p.minzoom ?? zooms.minzoom, p.maxzoom ?? zooms.maxzoom),
          defaultRescale: auto ? { ...auto, statisticsUrl: `${baseUrl}${prefix}/statistics${queryString(request.url, pointDrop)}` } : undefined,
        });
        return { kind: 'body', contentType: 'text/html; charset=utf-8', body };
      },
    });
  }

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/WMTSCapabilities.xml`,
    cacheKey: 'url',
    operationId: `${op}_wmts`,
    summary: 'OGC WMTS 1.0.0 capabilities (RESTful) for the 13 tile matrix sets.',
    tags,
    params: {
      tile_format: P.enumeration(IMAGE_FORMATS).default('png').describe('Output image type. Default is png.'),
      use_epsg: P.bool().default(false).describe('Use EPSG code, not opengis.net, for the ows:SupportedCRS in the TileMatrixSet.'),
      zooms: P.pattern(/^(\*|\w+)::\d+,\d+$/, '^(\\*|\\w+)::\\d+,\\d+$')
        .list()
        .describe('Zoom range per TMS: `WebMercatorQuad::0,5` or `*::0,1`.'),
      ...tileParams,
    },
    responses: { 200: { description: 'WMTS capabilities document.', content: { 'application/xml': {} } } },
    handler: async ({ params: p, request, baseUrl, signal }) => {
      postProcessFor(p);
      const reader = await backend.open(p, signal);
      const zoomOverrides = new Map<string, [number, number]>();
      for (const z of p.zooms ?? []) {
        const [id, range] = z.split('::');
        const [lo, hi] = range.split(',').map(Number);
        zoomOverrides.set(id, [lo, hi]);
      }
      const qs = queryString(request.url, WMTS_DROP);
      const xml = wmtsCapabilities({
        requestUrl: `${baseUrl}${request.url}`,
        title: backend.layerTitle(p),
        format: p.tile_format,
        useEpsg: p.use_epsg,
        tileUrl: (tmsId) => `${baseUrl}${prefix}/tiles/${tmsId}/{TileMatrix}/{TileCol}/{TileRow}.${p.tile_format}${qs}`,
        reader,
        zoomOverrides,
      });
      return { kind: 'body', contentType: 'application/xml', body: xml };
    },
  });
}
