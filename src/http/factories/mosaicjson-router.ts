/**
 * The /mosaicjson router (TiTiler's MosaicTilerFactory with cogeo-mosaic's MosaicBackend and the
 * MosaicJSONExtension, titiler spec §12.6): `url` names a MosaicJSON document read like a dataset
 * (local/http/s3, re-read when it changes); `bidx`/`expression` select each asset's bands and
 * `pixel_selection` combines them. Tiles, TileJSON, the map page, WMTS and the tile-set listings
 * are the shared factories driven by a mosaic backend; the document, validate, info, bounds,
 * point and the asset listings are here.
 */
import type { FastifyInstance } from 'fastify';
import { crsUri, WGS84 } from '../../geo/crs.ts';
import { datasetGeographicBounds } from '../../geo/geographic-bounds.ts';
import { getTileMatrixSet } from '../../geo/tms.ts';
import { validateMosaicJson } from '../../mosaic/mosaicjson/document.ts';
import { MosaicJsonLoader } from '../../mosaic/mosaicjson/loader.ts';
import { MOSAIC_TMS_ID, MosaicJsonReader } from '../../mosaic/mosaicjson/mosaicjson-reader.ts';
import { PIXEL_SELECTION_METHODS } from '../../mosaic/pixel-selection.ts';
import { bindLayer } from '../../readers/image-reader.ts';
import { layerFromParams } from '../../readers/layer.ts';
import { boundsFeature } from '../bounds-feature.ts';
import { bboxPathParams, lonLatPathParams } from '../params/coordinates.ts';
import { coordCrsParam, crsParam } from '../params/crs.ts';
import { bidxExpressionParams, datasetParams, readOptions } from '../params/dataset.ts';
import { tmsPathParam } from '../params/tms.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { RequestValidationError } from '../validation/issues.ts';
import { P, type ParsedParams } from '../validation/params.ts';
import type { ImageBackend } from './backend.ts';
import { registerTileRoutes } from './tile-routes.ts';
import { registerTileSetRoutes } from './tileset-routes.ts';

const TAG = 'MosaicJSON';

const mosaicUrlParam = {
  url: P.str().required().describe('MosaicJSON URL: local path or file:// under the allowed roots, http(s)://, or s3://bucket/key.'),
};

const mosaicLayerParams = {
  ...bidxExpressionParams,
  pixel_selection: P.literal(PIXEL_SELECTION_METHODS)
    .default('first')
    .describe(
      'How overlapping assets are combined: first (default: first valid asset in index order; stops reading once filled), highest, lowest, mean, median, stdev, lastbandlow, lastbandhigh (per pixel by the last band, which is dropped), count (valid assets per pixel).',
    ),
};

const params = { ...mosaicUrlParam, ...mosaicLayerParams };
type MosaicParams = typeof params;

const CRS_4326 = crsUri(WGS84) ?? 'http://www.opengis.net/def/crs/EPSG/0/4326';

export function registerMosaicJsonRouter(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix = '/mosaicjson'): void {
  const loader = new MosaicJsonLoader(services.sources);
  const open = async (p: Partial<ParsedParams<MosaicParams>> & { url: string }, signal: AbortSignal): Promise<MosaicJsonReader> => {
    const doc = await loader.load(p.url, signal);
    const layer = layerFromParams(p.bidx, p.expression);
    return new MosaicJsonReader({
      doc,
      location: p.url,
      openAsset: async (href, s) => bindLayer(await services.openCog(href, s), layer),
      pixelSelection: p.pixel_selection ?? 'first',
      concurrency: services.config.mosaicConcurrency,
    });
  };
  const backend: ImageBackend<MosaicParams, MosaicJsonReader> = {
    prefix,
    tag: TAG,
    params,
    wholeDatasetPreview: false,
    ownPointRoute: true,
    open,
    layerTitle: (p) => p.url,
  };
  const docBackend: ImageBackend<typeof mosaicUrlParam, MosaicJsonReader> = { ...backend, params: mosaicUrlParam, open, layerTitle: (p) => p.url };
  const tags = [TAG];
  const op = prefix.slice(1);

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/`,
    operationId: `${op}_read`,
    summary: 'Return the MosaicJSON document (defaults filled, as cogeo-mosaic reads it).',
    tags,
    params: mosaicUrlParam,
    responses: { 200: { description: 'MosaicJSON document.', content: { 'application/json': {} } } },
    handler: async ({ params: p, signal }) => ({ kind: 'json', data: (await open(p, signal)).doc }),
  });

  registerRoute(app, registry, {
    method: 'POST',
    path: `${prefix}/validate`,
    operationId: `${op}_validate`,
    summary: 'Validate a MosaicJSON document: `true`, or 422 with the problems.',
    tags,
    params: {},
    body: { required: true, description: 'MosaicJSON document.', schema: { type: 'object' } },
    responses: { 200: { description: '`true` for a valid document.', content: { 'application/json': {} } } },
    handler: ({ body }) => {
      const r = validateMosaicJson(body);
      if ('issues' in r) throw new RequestValidationError(r.issues.slice(0, 100).map((i) => ({ ...i, loc: ['body', ...i.loc] })));
      return Promise.resolve({ kind: 'json', data: true });
    },
  });

  const info = (reader: MosaicJsonReader) => ({
    bounds: reader.bounds,
    crs: CRS_4326,
    name: reader.doc.name ?? 'mosaic',
    quadkeys: [] as string[],
    mosaic_tilematrixset: mosaicTmsRepr(),
    mosaic_minzoom: reader.doc.minzoom,
    mosaic_maxzoom: reader.doc.maxzoom,
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/bounds`,
    operationId: `${op}_bounds`,
    summary: 'Return the bounds of the MosaicJSON.',
    tags,
    params: { ...mosaicUrlParam, ...crsParam },
    responses: { 200: { description: 'Bounds and their CRS.', content: { 'application/json': {} } } },
    handler: async ({ params: p, signal }) => {
      const reader = await open(p, signal);
      const crs = p.crs ?? WGS84;
      return { kind: 'json', data: { bounds: reader.boundsIn(crs), crs: crsUri(crs) ?? crs.id } };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info`,
    operationId: `${op}_info`,
    summary: 'Return basic info about the MosaicJSON.',
    tags,
    params: mosaicUrlParam,
    responses: { 200: { description: 'Mosaic info.', content: { 'application/json': {} } } },
    handler: async ({ params: p, signal }) => ({ kind: 'json', data: info(await open(p, signal)) }),
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info.geojson`,
    operationId: `${op}_info_geojson`,
    summary: "Return the mosaic's basic info as a GeoJSON Feature.",
    tags,
    params: { ...mosaicUrlParam, ...crsParam },
    responses: { 200: { description: 'GeoJSON Feature.', content: { 'application/geo+json': {} } } },
    handler: async ({ params: p, signal }) => {
      const reader = await open(p, signal);
      const data = boundsFeature(reader.boundsIn(p.crs ?? WGS84), info(reader));
      return { kind: 'json', contentType: 'application/geo+json', data };
    },
  });

  registerTileSetRoutes(app, registry, docBackend);
  registerTileRoutes(app, registry, backend);

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/point/{lon},{lat}`,
    operationId: `${op}_point`,
    summary: 'Values at a point, per asset of the mosaic that holds data there (index order).',
    tags,
    params: { ...lonLatPathParams, ...params, ...coordCrsParam, ...datasetParams },
    responses: {
      200: { description: 'Point values per asset.', content: { 'application/json': {} } },
      204: { description: 'No asset in the index for the point.' },
    },
    handler: async ({ params: p, signal }) => {
      const reader = await open(p, signal);
      const found = await reader.pointEach(p.lon, p.lat, p.coord_crs ?? WGS84, readOptions(p), signal);
      return {
        kind: 'json',
        data: {
          coordinates: [p.lon, p.lat],
          assets: found.map((v) => ({ name: v.asset, values: v.values, band_names: v.bandNames, band_descriptions: v.bandDescriptions })),
        },
      };
    },
  });

  const assetsResponse = { 200: { description: 'Asset paths, as written in the document (with its asset_prefix).', content: { 'application/json': {} } } };
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/tiles/{tileMatrixSetId}/{z}/{x}/{y}/assets`,
    operationId: `${op}_tile_assets`,
    summary: 'Return the assets of a tile.',
    tags,
    params: {
      ...tmsPathParam,
      z: P.int().path().describe('Zoom of the tile.'),
      x: P.int().path().describe('Column of the tile.'),
      y: P.int().path().describe('Row of the tile.'),
      ...mosaicUrlParam,
    },
    responses: assetsResponse,
    handler: async ({ params: p, signal }) => {
      const tms = getTileMatrixSet(p.tileMatrixSetId);
      tms.matrix(p.z);
      return { kind: 'json', data: (await open(p, signal)).assetsForTile(tms, p.x, p.y, p.z) };
    },
  });
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/point/{lon},{lat}/assets`,
    operationId: `${op}_point_assets`,
    summary: 'Return the assets of the index tile holding a point.',
    tags,
    params: { ...lonLatPathParams, ...mosaicUrlParam, ...coordCrsParam },
    responses: assetsResponse,
    handler: async ({ params: p, signal }) => ({ kind: 'json', data: (await open(p, signal)).assetsForPoint(p.lon, p.lat, p.coord_crs ?? WGS84) }),
  });
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/bbox/{minx},{miny},{maxx},{maxy}/assets`,
    operationId: `${op}_bbox_assets`,
    summary: 'Return the assets of the index tiles a bounding box touches.',
    tags,
    params: { ...bboxPathParams, ...mosaicUrlParam, ...coordCrsParam },
    responses: assetsResponse,
    handler: async ({ params: p, signal }) => {
      const reader = await open(p, signal);
      const coordCrs = p.coord_crs ?? WGS84;
      const box = datasetGeographicBounds(coordCrs, [p.minx, p.miny, p.maxx, p.maxy], WGS84);
      return { kind: 'json', data: reader.assetsForBbox(box) };
    },
  });
}

/** morecantile's repr of the index TMS (the `mosaic_tilematrixset` info field). */
function mosaicTmsRepr(): string {
  const tms = getTileMatrixSet(MOSAIC_TMS_ID);
  return `<TileMatrixSet title='${tms.title}' id='${tms.id}' crs='${tms.crsString}>`;
}
