/**
 * titiler.xarray's dataset extensions on /zarr: `/dataset/keys` (data variables), `/variables`
 * (the same, TiTiler's older name), `/dataset/dict` (xarray `to_dict(data=False)`), `/dataset/`
 * (an HTML page listing the variables, each gridded one linked to its map) and `/validate`
 * (whether a variable selection opens as a grid, and why not).
 */
import type { FastifyInstance } from 'fastify';
import { isRastileError } from '../../errors.ts';
import { dataVariables, describeGroup, isGridVariable } from '../../formats/array/describe.ts';
import { escapeHtml, page } from '../pages/html.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import { zarrDatasetParams, zarrSelection, zarrVariableParams } from './zarr-params.ts';

export function registerZarrDatasetRoutes(app: FastifyInstance, registry: RouteRegistry, services: Services, prefix: string, tag: string): void {
  const op = prefix.slice(1);
  const json = { 200: { description: 'JSON.', content: { 'application/json': {} } } };
  for (const [path, id] of [
    ['/dataset/keys', 'dataset_keys'],
    ['/variables', 'variables'],
  ] as const) {
    registerRoute(app, registry, {
      method: 'GET',
      path: `${prefix}${path}`,
      operationId: `${op}_${id}`,
      summary: 'The data variables of the dataset (or of `group`).',
      tags: [tag],
      params: zarrDatasetParams,
      responses: json,
      handler: async ({ params, signal }) => ({ kind: 'json', data: dataVariables((await services.arrays.openFile(params.url, signal)).file, params.group) }),
    });
  }
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/dataset/dict`,
    operationId: `${op}_dataset_dict`,
    summary: 'The dataset as xarray `to_dict(data=False)`: coords, attrs, dims, data_vars.',
    tags: [tag],
    params: zarrDatasetParams,
    responses: json,
    handler: async ({ params, signal }) => ({ kind: 'json', data: describeGroup((await services.arrays.openFile(params.url, signal)).file, params.group) }),
  });
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/dataset/`,
    operationId: `${op}_dataset_page`,
    summary: 'An HTML page of the dataset: variables, dimensions, and a map link per gridded variable.',
    tags: [tag],
    params: zarrDatasetParams,
    responses: { 200: { description: 'HTML page.', content: { 'text/html': {} } } },
    handler: async ({ params, signal, baseUrl }) => {
      const d = describeGroup((await services.arrays.openFile(params.url, signal)).file, params.group);
      const q = (name: string): string => {
        const s = new URLSearchParams({ url: params.url, variable: name });
        if (params.group) s.set('group', params.group);
        return s.toString();
      };
      const rows = Object.entries(d.data_vars)
        .map(([name, v]) => {
          const dims = v.dims.map((dim, i) => `${dim}: ${v.shape[i]}`).join(', ');
          const title = typeof v.attrs['long_name'] === 'string' ? v.attrs['long_name'] : '';
          const link = isGridVariable(v) ? `<a href="${escapeHtml(`${baseUrl}${prefix}/WebMercatorQuad/map.html?${q(name)}`)}">map</a>` : '';
          return `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(title)}</td><td>${escapeHtml(dims)}</td><td>${escapeHtml(v.dtype)}</td><td>${link}</td></tr>`;
        })
        .join('');
      const dims = Object.entries(d.dims)
        .map(([k, n]) => `<code>${escapeHtml(k)}</code>: ${n}`)
        .join(', ');
      const body = `<h1>${escapeHtml(params.url)}</h1><p>Dimensions: ${dims}</p><table><tr><th>variable</th><th>long_name</th><th>dimensions</th><th>dtype</th><th></th></tr>${rows}</table>`;
      return { kind: 'body', contentType: 'text/html; charset=utf-8', body: page(`Dataset ${params.url}`, body) };
    },
  });
  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/validate`,
    operationId: `${op}_validate`,
    summary: 'Whether the variable selection opens as a grid (`valid`), with the reason when it does not.',
    tags: [tag],
    params: zarrVariableParams,
    responses: json,
    handler: async ({ params, signal }) => {
      try {
        const reader = await services.openArray(params.url, zarrSelection(params), signal);
        const info = reader.info();
        return {
          kind: 'json',
          data: {
            valid: true,
            errors: [],
            warnings: [],
            crs: info.crs,
            bounds: info.bounds,
            width: info.width,
            height: info.height,
            count: info.count,
            dtype: info.dtype,
          },
        };
      } catch (err) {
        if (!isRastileError(err) || err.kind === 'Internal') throw err;
        if (['SourceNotFound', 'SourceForbidden', 'SourceUnauthorized', 'UpstreamError', 'UpstreamTimeout'].includes(err.kind)) throw err;
        return { kind: 'json', data: { valid: false, errors: [err.message], warnings: [] } };
      }
    },
  });
}
