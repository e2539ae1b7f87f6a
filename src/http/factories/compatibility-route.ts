/**
 * GET /compatibility (titiler-cmr §2.5): which backend can read a collection, found by opening a
 * sample granule's first data file with the array reader (variables, dimensions, coordinates,
 * sample statistics), then, when that fails, the raster reader (its /info). Deliberate
 * differences: `backend` is named after our path segments (`array`, `raster`) and the links
 * point at them; variable statistics come from a deterministic sample (see sample-stats.ts), not
 * a random one; a collection without granules is a 404 naming it.
 */
import type { FastifyInstance } from 'fastify';
import { Errors, isRastileError } from '../../errors.ts';
import { inspectArrayFile } from '../../formats/array/inspect.ts';
import { SAMPLE_CHUNKS, SAMPLE_VALUES } from '../../formats/array/sample-stats.ts';
import { assetHref } from '../../granule/granule-item.ts';
import { granuleAssets, granuleDataHosts } from '../../search/granule-assets.ts';
import { granuleQueryFromParams, LISTING_COVERAGE_TOLERANCE } from '../../search/query-params.ts';
import type { Granule } from '../../search/types.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { P } from '../validation/params.ts';

const params = {
  collection_concept_id: P.str().describe('The collection to inspect (required; alias `concept_id`).'),
  concept_id: P.str().hidden().describe('Alias of collection_concept_id.'),
  granule_ur: P.str().describe('The sample granule (default: the first one CMR returns).'),
  group: P.str().describe('HDF5/NetCDF group to inspect with the array reader.'),
  skip_variable_statistics: P.bool().default(false).describe('Leave out the per-variable sample statistics.'),
};

const quote = (s: string): string => encodeURIComponent(s).replace(/%2F/gi, '/');

function links(baseUrl: string, backend: 'array' | 'raster', id: string, variable: string | undefined, group: string | undefined) {
  let query = `collection_concept_id=${encodeURIComponent(id)}`;
  if (variable !== undefined) query += `&variables=${encodeURIComponent(variable)}`;
  if (group !== undefined && group !== '') query += `&group=${quote(group)}`;
  query += '&temporal={temporal}';
  const root = `${baseUrl}/${backend}`;
  return [
    { rel: 'tilejson', href: `${root}/WebMercatorQuad/tilejson.json?${query}`, type: 'application/json', title: 'TileJSON' },
    { rel: 'map', href: `${root}/WebMercatorQuad/map.html?${query}`, type: 'text/html', title: 'Map viewer' },
    { rel: 'tile', href: `${root}/tiles/WebMercatorQuad/{z}/{x}/{y}?${query}`, type: 'image/png', title: 'Map tile' },
  ];
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Failures that mean "this reader cannot read it" (then the other one is tried), not "the service failed". */
const isReadFailure = (err: unknown): boolean => isRastileError(err) && !['Internal', 'Overloaded', 'RequestTimeout'].includes(err.kind);

export function registerCompatibilityRoute(app: FastifyInstance, registry: RouteRegistry, services: Services): void {
  registerRoute(app, registry, {
    method: 'GET',
    path: '/compatibility',
    operationId: 'compatibility',
    summary: 'Which backend (array or raster) reads a collection, from a sample granule.',
    description:
      'Opens the first data file of a sample granule with the array reader (NetCDF/HDF5/Zarr), then, if that fails, the raster reader. ' +
      `Variable statistics (min, max, mean, p01, p05, p95, p99) are computed on a deterministic sample: at most ${SAMPLE_CHUNKS} stored chunks ` +
      `spread evenly over the variable, CF-decoded, at most ${SAMPLE_VALUES} values at an even stride (the same answer every time).`,
    tags: ['Granule search'],
    params,
    responses: {
      200: { description: 'The inspection.', content: { 'application/json': {} } },
      400: { description: 'No concept_id, or neither reader can open the sample granule.' },
      404: { description: 'Collection (or any granule of it) not found.' },
    },
    handler: async ({ params: p, signal, baseUrl }) => {
      const id = (p.collection_concept_id ?? p.concept_id ?? '').trim();
      if (id === '') throw Errors.badRequest('concept_id is required');
      const collection = await services.cmr.getCollection(id, signal);
      if (collection === null) throw Errors.sourceNotFound(`concept_id ${id} not found`);
      const query = granuleQueryFromParams(
        { collection_concept_id: id, granule_ur: p.granule_ur, items_limit: 1, exitwhenfull: false },
        { coverageTolerance: LISTING_COVERAGE_TOLERANCE },
      );
      let granule: Granule | undefined;
      for await (const g of services.cmr.searchGranules(query, { kind: 'none' }, signal)) {
        granule = g;
        break;
      }
      if (granule === undefined) throw Errors.sourceNotFound(`No granule found for concept_id ${id}${p.granule_ur ? ` and granule_ur ${p.granule_ur}` : ''}`);
      if (services.earthdata) for (const h of granuleDataHosts(granule)) services.earthdata.allowHost(h);
      const assets = granuleAssets(granule).filter((a) => assetHref(a) !== undefined);
      const first = assets[0];
      if (first === undefined) throw Errors.badRequest(`Granule '${granule.granuleUr}' of ${id} has no data link`);
      const href = assetHref(first)!;
      const datetime = (collection.umm['TemporalExtents'] as unknown) ?? null;
      let arrayError: unknown;
      try {
        const { file } = await services.arrays.openFile(href, signal);
        const inspection = await inspectArrayFile(file, p.group, services.arrays.chunkCache, { statistics: !p.skip_variable_statistics }, signal);
        const firstVariable = Object.keys(inspection.variables)[0];
        return {
          kind: 'json',
          data: {
            concept_id: id,
            backend: 'array',
            datetime,
            ...inspection,
            granule_ur: granule.granuleUr,
            example_assets: href,
            links: firstVariable === undefined ? [] : links(baseUrl, 'array', id, firstVariable, p.group),
          },
        };
      } catch (err) {
        if (!isReadFailure(err)) throw err;
        arrayError = err;
      }
      try {
        const reader = await services.openCog(href, signal);
        return {
          kind: 'json',
          data: {
            concept_id: id,
            backend: 'raster',
            datetime,
            granule_ur: granule.granuleUr,
            example_assets: Object.fromEntries(assets.map((a) => [a.key, assetHref(a)])),
            sample_asset_raster_info: reader.info(),
            links: links(baseUrl, 'raster', id, undefined, undefined),
          },
        };
      } catch (err) {
        if (!isReadFailure(err)) throw err;
        throw Errors.badRequest(
          `Could not open a sample granule for concept_id ${id} with either the rasterio or xarray backends.\n\nxarray error: ${errorText(arrayError)}\n\n rasterio_error: ${errorText(err)}`,
        );
      }
    },
  });
}
