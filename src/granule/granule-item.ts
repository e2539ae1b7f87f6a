/**
 * A granule seen as a multi-asset item, so the STAC multi-asset reader (StacReader: per-asset
 * bidx/expression, concatenated bands, global expression, asset_as_band) reads it unchanged
 * (titiler-cmr §4.5): one asset per data file (`granuleAssets`, keyed by the `assets_regex`
 * match or "0", "1", …), bounds = the footprint's envelope in EPSG:4326.
 *
 * Href read: the https `GET DATA` link, else the s3 direct-access link. Only files this
 * backend can read are assets: GeoTIFF extensions (`.tif`, `.tiff`) or no extension (tried as a
 * GeoTIFF). titiler-cmr's rasterio backend also lists `.nc`/`.h5` (through GDAL); we have no
 * GDAL, and NetCDF/HDF5 granules belong to /array. None readable → MissingAssets (400), like
 * titiler-cmr's "No valid asset found". A granule without a footprint we understand gets world
 * bounds (titiler-cmr fails to read it; we let each asset's own bounds decide).
 */
import { Errors } from '../errors.ts';
import type { Bounds } from '../geo/bounds.ts';
import { WGS84 } from '../geo/crs.ts';
import { WORLD_BOUNDS } from '../geo/geographic-bounds.ts';
import type { Granule, GranuleAsset } from '../search/types.ts';
import type { StacAsset, StacItem } from '../readers/stac/item.ts';

/** The location an asset is read from: https first, then s3. */
export const assetHref = (a: GranuleAsset): string | undefined => a.href ?? a.directHref;

const READABLE_EXTENSIONS = new Set(['.tif', '.tiff', '']);

/** Whether the raster backend can read the asset's file (by its extension). */
export const isReadableAsset = (a: GranuleAsset): boolean => READABLE_EXTENSIONS.has((a.ext ?? '').toLowerCase());

/**
 * The granule as an item of its readable assets (`readable`: the raster backend's GeoTIFF test by
 * default; the array backend reads any data file and lets the file's own bytes decide).
 */
export function granuleItem(granule: Granule, assets: readonly GranuleAsset[], readable: (a: GranuleAsset) => boolean = isReadableAsset): StacItem {
  const map = new Map<string, StacAsset>();
  for (const a of assets) {
    const href = assetHref(a);
    if (href === undefined || !readable(a)) continue;
    map.set(a.key, { name: a.key, href, bands: [] });
  }
  if (map.size === 0) {
    throw Errors.missingAssets(
      `No valid asset found in granule '${granule.granuleUr}': no ${readable === isReadableAsset ? 'GeoTIFF ' : ''}data file (asset media types not supported)`,
      {
        context: { granule: granule.granuleUr },
      },
    );
  }
  const bbox: Bounds = granule.bbox ?? [...WORLD_BOUNDS];
  return {
    location: granule.granuleUr,
    id: granule.granuleUr,
    assets: map,
    renders: {},
    spatial: { crs: WGS84, bounds: bbox },
    bbox,
  };
}
