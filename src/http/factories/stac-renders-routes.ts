/**
 * GET /stac/renders and /stac/renders/{render_id}: the item's `properties.renders` (STAC render
 * extension), each checked against the tile parameters (`valid`) and linked to its TileJSON and
 * WMTS document. Old-style `asset_bidx` / `asset_expression` keys are rewritten into `assets` options.
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../errors.ts';
import type { StacItemLoader } from '../../readers/stac/item-loader.ts';
import { algorithmParams } from '../params/algorithm.ts';
import { assetsExprParams } from '../params/assets.ts';
import { datasetParams } from '../params/dataset.ts';
import { colormapParams, renderParams } from '../params/render.ts';
import { tileBufferParams } from '../params/tile.ts';
import { pyUrlencode } from '../query-string.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import { P, parseParams } from '../validation/params.ts';
import { stacUrlParam } from './stac-params.ts';

/** Render keys that describe the render, not the tiles. */
const NOT_TILE_PARAMS = new Set(['title', 'minmax_zoom', 'tilematrixsets', 'asset_bidx', 'asset_expression']);
const TILE_PARAMS = { ...stacUrlParam, ...assetsExprParams, ...tileBufferParams, ...datasetParams, ...algorithmParams, ...colormapParams, ...renderParams };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `asset_bidx: ["B4|1,2"]` → `assets: ["B4|bidx=1,2"]`; `asset_expression: ["B02|b1*2"]` → `assets: ["B02|expression=b1*2"]`. */
function modernise(render: Record<string, unknown>): Record<string, unknown> {
  const out = { ...render };
  const assets = Array.isArray(out['assets']) ? out['assets'].map(String) : [];
  const apply = (key: string, option: string): void => {
    const v = out[key];
    const entries: Array<[string, string]> = Array.isArray(v)
      ? v
          .map(String)
          .map((e) => [e.slice(0, e.indexOf('|')), e.slice(e.indexOf('|') + 1)] as [string, string])
          .filter(([n]) => n !== '')
      : isObject(v)
        ? Object.entries(v).map(([n, x]) => [n, String(x)] as [string, string])
        : [];
    for (const [name, value] of entries) {
      const i = assets.indexOf(name);
      if (i >= 0) assets[i] = `${name}|${option}=${value}`;
    }
  };
  apply('asset_bidx', 'bidx');
  apply('asset_expression', 'expression');
  if (assets.length > 0) out['assets'] = assets;
  delete out['asset_bidx'];
  delete out['asset_expression'];
  return out;
}

/** Render values as query pairs (lists repeated, `rescale` pairs comma-joined, objects as JSON). */
function renderPairs(params: Record<string, unknown>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(params)) {
    if (NOT_TILE_PARAMS.has(key) || value === null || value === undefined) continue;
    const one = (v: unknown): string => (Array.isArray(v) ? v.join(',') : isObject(v) ? JSON.stringify(v) : String(v));
    if (Array.isArray(value) && key !== 'colormap') for (const v of value) pairs.push([key, one(v)]);
    else pairs.push([key, one(value)]);
  }
  return pairs;
}

function describeRender(id: string, render: unknown, url: string, baseUrl: string, prefix: string): Record<string, unknown> {
  const params = modernise(isObject(render) ? render : {});
  const pairs = renderPairs(params);
  const query: Record<string, string[]> = { url: [url] };
  for (const [k, v] of pairs) (query[k] ??= []).push(v);
  let valid = true;
  try {
    parseParams(TILE_PARAMS, { query, path: {} });
  } catch {
    valid = false;
  }
  const qs = pyUrlencode([['url', url], ...pairs]);
  const links: Array<Record<string, unknown>> = [
    {
      href: `${baseUrl}${prefix}/renders/${encodeURIComponent(id)}?${pyUrlencode([['url', url]])}`,
      rel: 'self',
      type: 'application/json',
      title: `${id} render item`,
    },
  ];
  if (valid) {
    links.push(
      { href: `${baseUrl}${prefix}/{tileMatrixSetId}/tilejson.json?${qs}`, rel: 'tilesets-map', title: 'tilejson', templated: true },
      { href: `${baseUrl}${prefix}/WMTSCapabilities.xml?${qs}`, rel: 'tilesets-map', title: 'wmts', templated: true },
    );
  }
  return { valid, params, links };
}

export function registerStacRendersRoutes(app: FastifyInstance, registry: RouteRegistry, loader: StacItemLoader, prefix: string, tag: string): void {
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/renders`,
    operationId: `${prefix.slice(1)}_renders`,
    summary: 'List the STAC renders of the item.',
    tags: [tag],
    params: { ...stacUrlParam },
    cacheKey: 'url',
    responses: {
      200: { description: 'Renders, with validity and links.', content: { 'application/json': { type: 'object', required: ['renders', 'links'] } } },
    },
    handler: async ({ params, signal, baseUrl, request }) => {
      const item = await loader.load(params.url, signal);
      const renders = Object.fromEntries(Object.entries(item.renders).map(([id, r]) => [id, describeRender(id, r, params.url, baseUrl, prefix)]));
      return {
        kind: 'json',
        data: { renders, links: [{ href: `${baseUrl}${request.url}`, rel: 'self', type: 'application/json', title: 'List STAC Renders metadata' }] },
      };
    },
  });
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/renders/{render_id}`,
    operationId: `${prefix.slice(1)}_render`,
    summary: 'One STAC render of the item.',
    tags: [tag],
    params: { ...stacUrlParam, render_id: P.str().path().describe('Render id.') },
    responses: {
      200: { description: 'The render, its validity and links.', content: { 'application/json': { type: 'object', required: ['valid', 'params', 'links'] } } },
    },
    handler: async ({ params, signal, baseUrl }) => {
      const item = await loader.load(params.url, signal);
      if (!Object.hasOwn(item.renders, params.render_id)) throw Errors.sourceNotFound('Render not found');
      return { kind: 'json', data: describeRender(params.render_id, item.renders[params.render_id], params.url, baseUrl, prefix) };
    },
  });
}
