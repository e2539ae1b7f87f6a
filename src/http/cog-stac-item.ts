/**
 * A STAC Item describing one GeoTIFF (GET /cog/stac), shaped like rio-stac's `create_stac_item`:
 * footprint and bbox in EPSG:4326, the projection (proj), raster (per-band type, nodata, scale,
 * statistics and histogram from a preview) and eo (band names) extensions.
 */
import { crsUri, WGS84 } from '../geo/crs.ts';
import { imageStatistics } from '../raster/image-statistics.ts';
import type { GridReader } from '../readers/grid/grid-reader.ts';
import { boundsFeature } from './bounds-feature.ts';

const EXT = {
  proj: 'https://stac-extensions.github.io/projection/v1.1.0/schema.json',
  raster: 'https://stac-extensions.github.io/raster/v1.1.0/schema.json',
  eo: 'https://stac-extensions.github.io/eo/v1.1.0/schema.json',
};

export interface StacItemOptions {
  url: string;
  id?: string;
  datetime?: string;
  collection?: string;
  collectionUrl?: string;
  assetName: string;
  assetRoles?: string[];
  assetMediaType: string;
  assetHref?: string;
  withProj: boolean;
  withRaster: boolean;
  withEo: boolean;
  maxSize: number;
  geometryPrecision: number;
}

const COG_MEDIA_TYPE = 'image/tiff; application=geotiff; profile=cloud-optimized';

export async function stacItem(reader: GridReader, o: StacItemOptions, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const info = reader.info();
  const round = (v: number): number => (o.geometryPrecision >= 0 ? Number(v.toFixed(o.geometryPrecision)) : v);
  const bbox = reader.boundsIn(WGS84).map(round) as [number, number, number, number];
  const feature = boundsFeature(bbox, {});
  const properties: Record<string, unknown> = {};
  if (o.datetime?.includes('/')) {
    const [start, end] = o.datetime.split('/');
    properties['start_datetime'] = start && start !== '..' ? start : null;
    properties['end_datetime'] = end && end !== '..' ? end : null;
    properties['datetime'] = null;
  } else {
    properties['datetime'] = o.datetime ?? new Date().toISOString();
  }
  const extensions: string[] = [];
  if (o.withProj) {
    extensions.push(EXT.proj);
    const uri = crsUri(reader.crs);
    const epsg = uri?.match(/\/EPSG\/0\/(\d+)$/)?.[1];
    const [minx, miny, maxx, maxy] = info.bounds;
    const resX = (maxx - minx) / info.width;
    const resY = (maxy - miny) / info.height;
    properties['proj:epsg'] = epsg ? Number(epsg) : null;
    if (!epsg) properties['proj:wkt2'] = info.crs;
    properties['proj:geometry'] = boundsFeature(info.bounds, {}).geometry;
    properties['proj:bbox'] = info.bounds;
    properties['proj:shape'] = [info.height, info.width];
    properties['proj:transform'] = [resX, 0, minx, 0, -resY, maxy, 0, 0, 1];
  }
  const asset: Record<string, unknown> = {
    href: o.assetHref ?? o.url,
    type: o.assetMediaType === 'auto' ? COG_MEDIA_TYPE : o.assetMediaType,
    ...(o.assetRoles?.length ? { roles: o.assetRoles } : {}),
  };
  if (o.withRaster) {
    extensions.push(EXT.raster);
    const img = await reader.preview({ maxSize: o.maxSize }, signal);
    const stats = imageStatistics(img, { histogramBins: 10 });
    asset['raster:bands'] = Object.values(stats).map((s, i) => ({
      data_type: info.dtype,
      scale: info.scales[i] ?? 1,
      offset: info.offsets[i] ?? 0,
      sampling: 'area',
      ...(info.nodata_type === 'Nodata' ? { nodata: info.nodata_value === null || info.nodata_value === undefined ? 'nan' : info.nodata_value } : {}),
      statistics: { mean: s.mean, minimum: s.min, maximum: s.max, stddev: s.std, valid_percent: s.valid_percent },
      histogram: { count: s.histogram[0].length, min: s.histogram[1][0], max: s.histogram[1][s.histogram[1].length - 1], buckets: s.histogram[0] },
    }));
  }
  if (o.withEo) {
    extensions.push(EXT.eo);
    asset['eo:bands'] = info.band_descriptions.map(([name, description]) => ({ name, ...(description && description !== name ? { description } : {}) }));
  }
  const links = o.collectionUrl ? [{ rel: 'collection', href: o.collectionUrl, type: 'application/json' }] : [];
  return {
    type: 'Feature',
    stac_version: '1.0.0',
    stac_extensions: extensions,
    id: o.id ?? basename(o.url),
    geometry: feature.geometry,
    bbox,
    properties,
    links,
    assets: { [o.assetName]: asset },
    ...(o.collection ? { collection: o.collection } : {}),
  };
}

/** rio-stac's default id: the file name of the dataset (query string left out). */
function basename(url: string): string {
  const name = url.split('?')[0]!.split(/[/\\]/).pop() ?? url;
  return name || url;
}
