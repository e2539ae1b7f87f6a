/**
 * Granule listings (backend-agnostic, root level; they never open data):
 *
 *   GET /granules                                        (the search's own filters only)
 *   GET /bbox/{minx},{miny},{maxx},{maxy}/granules       (granules intersecting the box; coord_crs)
 *   GET /point/{lon},{lat}/granules                      (granules containing the point; coord_crs)
 *   GET /tiles/{tileMatrixSetId}/{z}/{x}/{y}/granules    (the tile's geographic bounds)
 *
 * `f=json` (default): a plain JSON list of the granules' data-file URLs (https link, else the s3
 * link), in CMR order and file order, optionally limited by `assets_regex` — our spec's shape.
 * titiler-cmr 1.x returns its Granule objects here instead (its migration guide promises the URL
 * list); `f=geojson` gives the granule records. `f=geojson`: a FeatureCollection, one Feature per
 * granule with its footprint (null when the record has none we understand), `bbox`, and the
 * granule's fields as snake_case properties plus `assets` (key → URL). Served as
 * application/json, like titiler-cmr. No result → `[]` / an empty FeatureCollection (200).
 *
 * Search defaults as titiler-cmr's listings: exitwhenfull=true, coverage_tolerance=0, items_limit
 * 100 — pass `exitwhenfull=false&items_limit=…` for a full listing of an area.
 */
import type { FastifyInstance } from 'fastify';
import { sameCrs, WGS84, type Crs } from '../../geo/crs.ts';
import { getTileMatrixSet } from '../../geo/tms.ts';
import { datasetGeographicBounds, transformPoint } from '../../geo/transform.ts';
import { assetHref } from '../../granule/granule-item.ts';
import { granuleAssets } from '../../search/granule-assets.ts';
import { granuleQueryFromParams, LISTING_COVERAGE_TOLERANCE } from '../../search/query-params.ts';
import type { Granule, SearchArea } from '../../search/types.ts';
import { bboxPathParams, lonLatPathParams } from '../params/coordinates.ts';
import { coordCrsParam } from '../params/crs.ts';
import { granuleSearchParams, legacyGranuleSearchAliases } from '../params/granule-search.ts';
import { regexValue } from '../params/regex.ts';
import { tmsPathParam } from '../params/tms.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { P, type ParamDefs, type ParsedParams } from '../validation/params.ts';

const TAG = 'Granules';

const listingParams = {
  ...granuleSearchParams({ coverageTolerance: LISTING_COVERAGE_TOLERANCE }),
  ...legacyGranuleSearchAliases,
  assets_regex: regexValue('assets_regex').describe('f=json: list only the data files whose name (without extension) matches this regular expression.'),
  f: P.literal(['json', 'geojson'] as const)
    .default('json')
    .describe('`json`: a plain list of the data-file URLs of the granules; `geojson`: a FeatureCollection of granule footprints with their properties.'),
};

type ListingParams = ParsedParams<typeof listingParams>;

const RESPONSES = {
  200: {
    description: 'Granule data-file URLs (f=json) or a GeoJSON FeatureCollection of granules (f=geojson).',
    content: { 'application/json': {} },
  },
};

export function registerGranuleListingRoutes(app: FastifyInstance, registry: RouteRegistry, services: Services): void {
  const list = async (p: ListingParams, area: SearchArea, signal: AbortSignal) => {
    const query = granuleQueryFromParams(p, { coverageTolerance: LISTING_COVERAGE_TOLERANCE });
    const granules: Granule[] = [];
    for await (const g of services.cmr.searchGranules(query, area, signal)) granules.push(g);
    const data = p.f === 'geojson' ? featureCollection(granules) : granules.flatMap((g) => assetUrls(g, p.assets_regex));
    return { kind: 'json' as const, data };
  };

  const route = <D extends ParamDefs>(path: string, id: string, summary: string, extra: D, area: (p: ParsedParams<D>) => SearchArea) =>
    registerRoute(app, registry, {
      method: 'GET',
      path,
      operationId: id,
      summary,
      tags: [TAG],
      params: { ...extra, ...listingParams },
      responses: RESPONSES,
      handler: async ({ params, signal }) => list(params, area(params), signal),
    });

  route('/granules', 'granules', 'Granules matching the search filters (no area).', {}, () => ({ kind: 'none' }));

  route(
    '/bbox/{minx},{miny},{maxx},{maxy}/granules',
    'bbox_granules',
    'Granules intersecting a bounding box.',
    { ...bboxPathParams, ...coordCrsParam },
    (p) => ({ kind: 'bbox', bounds: datasetGeographicBounds(p.coord_crs ?? WGS84, [p.minx, p.miny, p.maxx, p.maxy], WGS84) }),
  );

  route('/point/{lon},{lat}/granules', 'point_granules', 'Granules containing a point.', { ...lonLatPathParams, ...coordCrsParam }, (p) => {
    const crs: Crs = p.coord_crs ?? WGS84;
    const [lon, lat] = sameCrs(crs, WGS84) ? [p.lon, p.lat] : transformPoint(crs, WGS84, p.lon, p.lat);
    return { kind: 'point', lon, lat };
  });

  route(
    '/tiles/{tileMatrixSetId}/{z}/{x}/{y}/granules',
    'tile_granules',
    "Granules intersecting a tile's geographic bounds.",
    { ...tmsPathParam, z: P.int().path(), x: P.int().path(), y: P.int().path() },
    (p) => {
      const tms = getTileMatrixSet(p.tileMatrixSetId);
      return { kind: 'bbox', bounds: datasetGeographicBounds(tms.crs, tms.tileBounds(p.x, p.y, p.z), WGS84) };
    },
  );
}

/** The granule's data-file URLs (https, else s3), optionally only the files matching `regex`. */
function assetUrls(g: Granule, regex?: RegExp): string[] {
  return granuleAssets(g, regex)
    .map(assetHref)
    .filter((u): u is string => u !== undefined);
}

function featureCollection(granules: readonly Granule[]): Record<string, unknown> {
  return {
    type: 'FeatureCollection',
    features: granules.map((g) => ({
      type: 'Feature',
      id: g.id,
      geometry: g.footprint,
      bbox: g.bbox,
      properties: granuleProperties(g),
    })),
  };
}

/** titiler-cmr's Granule fields, snake_case all the way down, plus our assets map and cloud cover. */
function granuleProperties(g: Granule): Record<string, unknown> {
  const umm = g.umm;
  const pickUrls = Array.isArray(umm['RelatedUrls'])
    ? (umm['RelatedUrls'] as unknown[]).map((r) => {
        const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
        return { url: o['URL'] ?? null, type: o['Type'] ?? null, description: o['Description'] ?? null };
      })
    : [];
  const dataGranule = umm['DataGranule'] as Record<string, unknown> | undefined;
  return {
    id: g.id,
    granule_ur: g.granuleUr,
    collection_concept_id: g.collectionConceptId,
    related_urls: pickUrls,
    spatial_extent: snakeCase(umm['SpatialExtent'] ?? null),
    temporal_extent: snakeCase(umm['TemporalExtent'] ?? null),
    additional_attributes: snakeCase(umm['AdditionalAttributes'] ?? null),
    data_granule: dataGranule ? snakeCase({ ArchiveAndDistributionInformation: dataGranule['ArchiveAndDistributionInformation'] ?? [] }) : null,
    cloud_cover: g.cloudCover,
    start_datetime: g.temporal.start,
    end_datetime: g.temporal.end,
    assets: Object.fromEntries(granuleAssets(g).flatMap((a) => (assetHref(a) ? [[a.key, assetHref(a)]] : []))),
  };
}

/** `GPolygons` → `g_polygons`, `SizeInBytes` → `size_in_bytes`, `URL` → `url` (pydantic alias style). */
function snakeKey(k: string): string {
  return k
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

function snakeCase(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeCase);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [snakeKey(k), snakeCase(x)]));
  return v;
}
