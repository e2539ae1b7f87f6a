/**
 * A parsed STAC Item: its raster assets (hrefs resolved against the item location), the
 * metadata the readers use (band names, per-band statistics), renders and spatial extent.
 */
import { Errors } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';
import { geometryBounds, type Geometry } from '../../geo/geometry.ts';
import { resolveHref } from './href.ts';
import { itemSpatial, type ItemSpatial } from './item-spatial.ts';
import { isRasterMediaType } from './media-types.ts';

export interface StacBand {
  name?: string;
  commonName?: string;
}

export interface StacAsset {
  name: string;
  /** Absolute location (href resolved against the item). */
  href: string;
  type?: string;
  /** STAC `bands` (1.1) or `eo:bands` (1.0), in band order. */
  bands: StacBand[];
  /** Per-band [minimum, maximum] from `bands`/`raster:bands` statistics, when every band has them. */
  statistics?: Array<[number, number]>;
}

export interface StacItem {
  /** The location the item was read from (as given in `url`). */
  location: string;
  id: string;
  /** Raster assets by name, in item order. */
  assets: Map<string, StacAsset>;
  /** `properties.renders` (an object), or {}. */
  renders: Record<string, unknown>;
  spatial: ItemSpatial;
  /** Item bbox (2D, EPSG:4326): from `bbox`, else from `geometry`. */
  bbox: Bounds;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseStacItem(text: string, location: string): StacItem {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw Errors.invalidFormat(`STAC item ${location} is not valid JSON`);
  }
  if (!isObject(doc) || !isObject(doc['assets'])) throw Errors.invalidFormat(`${location} is not a STAC Item (no "assets" object)`);
  const properties = isObject(doc['properties']) ? doc['properties'] : {};
  const assets = new Map<string, StacAsset>();
  const rasterFields: Json[] = [];
  for (const [name, raw] of Object.entries(doc['assets'])) {
    if (!isObject(raw) || typeof raw['href'] !== 'string' || raw['href'] === '') continue;
    if (!isRasterMediaType(raw['type'])) continue;
    assets.set(name, {
      name,
      href: resolveHref(raw['href'], location),
      type: typeof raw['type'] === 'string' ? raw['type'] : undefined,
      bands: stacBands(raw),
      statistics: bandStatistics(raw),
    });
    rasterFields.push(raw);
  }
  if (assets.size === 0)
    throw Errors.missingAssets(`No valid asset found in STAC item ${location}: no raster asset (GeoTIFF, JPEG2000 or HDF media type, or none)`, {
      context: { url: location },
    });
  const bbox = itemBbox(doc, location);
  return {
    location,
    id: typeof doc['id'] === 'string' ? doc['id'] : '',
    assets,
    renders: isObject(properties['renders']) ? properties['renders'] : {},
    spatial: itemSpatial(rasterFields, properties, bbox),
    bbox,
  };
}

function itemBbox(doc: Json, location: string): Bounds {
  const bbox = doc['bbox'];
  if (Array.isArray(bbox) && bbox.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    if (bbox.length === 4) return [bbox[0], bbox[1], bbox[2], bbox[3]];
    if (bbox.length === 6) return [bbox[0], bbox[1], bbox[3], bbox[4]];
  }
  const geometry = doc['geometry'];
  if (isObject(geometry) && typeof geometry['type'] === 'string') {
    try {
      const b = geometryBounds(geometry as unknown as Geometry);
      if (b.every(Number.isFinite)) return b;
    } catch {
      // fall through
    }
  }
  throw Errors.invalidFormat(`STAC item ${location} has neither a valid "bbox" nor a geometry`);
}

function stacBands(asset: Json): StacBand[] {
  const list = Array.isArray(asset['bands']) ? asset['bands'] : Array.isArray(asset['eo:bands']) ? asset['eo:bands'] : [];
  return list.map((b: unknown) => {
    const o = isObject(b) ? b : {};
    const common = o['eo:common_name'] ?? o['common_name'];
    return {
      name: typeof o['name'] === 'string' ? o['name'] : undefined,
      commonName: typeof common === 'string' ? common : undefined,
    };
  });
}

/** rio-tiler's dataset_statistics: [minimum, maximum] of every band, or nothing. */
function bandStatistics(asset: Json): Array<[number, number]> | undefined {
  for (const key of ['bands', 'raster:bands']) {
    const list = asset[key];
    if (!Array.isArray(list) || list.length === 0) continue;
    const stats: Array<[number, number]> = [];
    for (const b of list) {
      const s = isObject(b) && isObject(b['statistics']) ? b['statistics'] : undefined;
      if (!s || typeof s['minimum'] !== 'number' || typeof s['maximum'] !== 'number') break;
      stats.push([s['minimum'], s['maximum']]);
    }
    if (stats.length === list.length) return stats;
  }
  return undefined;
}
