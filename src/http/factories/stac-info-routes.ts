/**
 * The multi-asset routes that are not image or merged-statistics routes: /assets (raster asset
 * names), /info and /info.geojson (each asset's GeoTIFF info, keyed by asset) and
 * /asset_statistics (each asset's own preview statistics, keyed by asset).
 */
import type { FastifyInstance } from 'fastify';
import { WGS84 } from '../../geo/crs.ts';
import { imageStatistics } from '../../raster/image-statistics.ts';
import { readLayer } from '../../readers/layer.ts';
import type { StacItemLoader } from '../../readers/stac/item-loader.ts';
import { readAssetsConcurrently } from '../../readers/stac/read-assets.ts';
import type { StacItem } from '../../readers/stac/item.ts';
import { selectAssets, type SelectedAsset } from '../../readers/stac/select-assets.ts';
import { StacReader } from '../../readers/stac/stac-reader.ts';
import type { AssetRequest } from '../../readers/stac/asset-request.ts';
import { boundsFeature } from '../bounds-feature.ts';
import { assetsParams } from '../params/assets.ts';
import { crsParam } from '../params/crs.ts';
import { datasetParams, readOptions } from '../params/dataset.ts';
import { previewSize, previewSizeParams } from '../params/image-size.ts';
import { histogramParams, statisticsOptions, statisticsParams } from '../params/statistics.ts';
import { registerRoute, type RouteRegistry } from '../route.ts';
import type { Services } from '../services.ts';
import type { StacUrlParam } from './stac-params.ts';
import { mapOf } from '../openapi-schemas.ts';

export interface StacInfoRoutesOptions {
  prefix: string;
  tag: string;
  urlParam: StacUrlParam;
  loader: StacItemLoader;
  services: Services;
  maxSide: number;
}

export function registerStacInfoRoutes(app: FastifyInstance, registry: RouteRegistry, o: StacInfoRoutesOptions): void {
  const { prefix, loader, services } = o;
  const tags = [o.tag];
  const op = prefix.slice(1);

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/assets`,
    operationId: `${op}_assets`,
    summary: 'Return the names of the raster assets of the STAC item.',
    tags,
    params: { ...o.urlParam },
    responses: { 200: { description: 'Raster asset names.', content: { 'application/json': { type: 'array', items: { type: 'string' } } } } },
    handler: async ({ params: p, signal }) => ({ kind: 'json', data: [...(await loader.load(p.url, signal)).assets.keys()] }),
  });

  /** One result per selected asset (`:all:` allowed), read concurrently, keyed by the asset's response key. */
  const perAsset = async <T>(
    p: { url: string; assets: readonly AssetRequest[] },
    signal: AbortSignal,
    read: (sel: SelectedAsset, signal: AbortSignal) => Promise<T>,
  ): Promise<{ item: StacItem; data: Record<string, T> }> => {
    const item = await loader.load(p.url, signal);
    const selected = selectAssets(item, p.assets, { allowAll: true });
    const list = await readAssetsConcurrently(selected, signal, read);
    const data: Record<string, T> = {};
    selected.forEach((sel, i) => (data[sel.key] = list[i]));
    return { item, data };
  };

  const infos = (p: { url: string; assets: readonly AssetRequest[] }, signal: AbortSignal) =>
    perAsset(p, signal, async (sel, s) => (await services.openCog(sel.asset.href, s)).info());

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info`,
    operationId: `${op}_info`,
    summary: "Return each asset's basic info, keyed by asset (`assets=:all:` for every raster asset).",
    description: 'Per-asset options (`name|bidx=…`) only change the response key: info describes the whole asset.',
    tags,
    params: { ...o.urlParam, ...assetsParams },
    responses: { 200: { description: 'Info per asset.', content: { 'application/json': mapOf('Info') } } },
    handler: async ({ params: p, signal }) => ({ kind: 'json', data: (await infos(p, signal)).data }),
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/info.geojson`,
    operationId: `${op}_info_geojson`,
    summary: "Return the item footprint as a GeoJSON Feature whose properties are each asset's info.",
    tags,
    params: { ...o.urlParam, ...assetsParams, ...crsParam },
    responses: { 200: { description: 'GeoJSON Feature.', content: { 'application/geo+json': {} } } },
    handler: async ({ params: p, signal }) => {
      const { item, data } = await infos(p, signal);
      const b = new StacReader(item, [], (href, s) => services.openCog(href, s)).boundsIn(p.crs ?? WGS84);
      return { kind: 'json', contentType: 'application/geo+json', data: boundsFeature(b, data) };
    },
  });

  registerRoute(app, registry, {
    method: 'GET',
    path: `${prefix}/asset_statistics`,
    operationId: `${op}_asset_statistics`,
    summary: 'Statistics of each asset on its own preview (max_size 1024 by default), keyed by asset then band.',
    tags,
    params: { ...o.urlParam, ...assetsParams, ...datasetParams, ...previewSizeParams(o.maxSide), ...statisticsParams, ...histogramParams },
    responses: { 200: { description: 'Statistics per asset and band.', content: { 'application/json': mapOf('Statistics') } } },
    handler: async ({ params: p, signal }) => {
      const request = { ...readOptions(p), ...previewSize(p) };
      const options = statisticsOptions(p);
      const { data } = await perAsset(p, signal, async (sel, s) => {
        const reader = await services.openCog(sel.asset.href, s);
        const img = await readLayer(sel.layer, (indexes) => reader.preview({ ...request, indexes }, s));
        return imageStatistics(img, options);
      });
      return { kind: 'json', data };
    },
  });
}
