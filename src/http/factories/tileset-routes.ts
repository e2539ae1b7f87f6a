/** GET /tiles (OGC tile set list) and GET /tiles/{tileMatrixSetId} (tile set metadata). */
import type { FastifyInstance } from 'fastify';
import { crsUri, WGS84 } from '../../geo/crs.ts';
import { getTileMatrixSet, TMS_IDS } from '../../geo/tms.ts';
import { tileSetListPage, tileSetPage } from '../pages/tileset-pages.ts';
import { crsParam } from '../params/crs.ts';
import { fParam, wantsHtml } from '../params/format.ts';
import { zoomOverrideParams } from '../params/tile.ts';
import { tmsPathParam } from '../params/tms.ts';
import { queryString } from '../query-string.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { ParamDefs } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { rankTileSets } from './tileset-order.ts';

const schemeLink = (baseUrl: string, id: string) => ({
  href: `${baseUrl}/tileMatrixSets/${id}`,
  rel: 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme',
  type: 'application/json',
  title: `Definition of '${id}' tileMatrixSet`,
});

export function registerTileSetRoutes<D extends ParamDefs>(app: FastifyInstance, registry: RouteRegistry, backend: ImageBackend<D>): void {
  const { prefix } = backend;
  const tags = [backend.tag];

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/tiles`,
    cacheKey: 'url', // links echo the query
    vary: ['accept'],
    operationId: `${prefix.slice(1)}_tilesets`,
    summary: 'Retrieve a list of available raster tilesets for the dataset.',
    tags,
    params: { ...backend.params, ...crsParam, ...fParam },
    responses: { 200: { description: 'TileSet list.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params: p, request, baseUrl, signal }) => {
      const reader = await backend.open(p, signal);
      const crs = p.crs ?? WGS84;
      const b = reader.boundsIn(crs);
      const qs = queryString(request.url, ['crs']);
      const tilesets = TMS_IDS.map((id) => ({
        title: `tileset tiled using ${id} TileMatrixSet`,
        dataType: 'map',
        crs: getTileMatrixSet(id).crsString,
        boundingBox: { lowerLeft: [b[0], b[1]], upperRight: [b[2], b[3]], crs: crsUri(crs) ?? crs.id },
        links: [
          { href: `${baseUrl}${prefix}/tiles/${id}${qs}`, rel: 'self', type: 'application/json', title: `Tileset tiled using ${id} TileMatrixSet` },
          { href: `${baseUrl}${prefix}/tiles/${id}/{z}/{x}/{y}${qs}`, rel: 'tile', title: 'Templated link for retrieving Raster tiles' },
          schemeLink(baseUrl, id),
        ],
        accessConstraints: 'unclassified',
      }));
      const data = { tilesets };
      if (wantsHtml(p.f, request.headers.accept)) {
        // the tile sets that make sense for the dataset first (the JSON keeps TiTiler's order)
        const byId = new Map(TMS_IDS.map((id, i) => [id, tilesets[i]!]));
        const ordered = rankTileSets(TMS_IDS, reader).map((r) => ({ ...byId.get(r.id)!, note: r.note }));
        return { kind: 'body', contentType: 'text/html; charset=utf-8', body: tileSetListPage({ tilesets: ordered }) };
      }
      return { kind: 'json', data };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/tiles/{tileMatrixSetId}`,
    cacheKey: 'url',
    vary: ['accept'],
    operationId: `${prefix.slice(1)}_tileset`,
    summary: 'Retrieve the raster tileset metadata for the dataset and the specified tiling scheme.',
    tags,
    params: {
      ...tmsPathParam,
      ...backend.params,
      ...zoomOverrideParams,
      ...fParam,
    },
    responses: { 200: { description: 'TileSet metadata.', content: { 'application/json': {}, 'text/html': {} } } },
    handler: async ({ params: p, request, baseUrl, signal }) => {
      const reader = await backend.open(p, signal);
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
          schemeLink(baseUrl, id),
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
