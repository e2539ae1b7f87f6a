/**
 * The granule-search data model shared by the CMR client (src/search) and the mosaic readers
 * (src/mosaic, src/granule). Plain data only.
 */
import type { Bounds } from '../geo/bounds.ts';
import type { Geometry } from '../geo/geometry.ts';

/** CMR filters a request carries (titiler-cmr §3.1, §3.2), already validated. */
export interface GranuleQuery {
  collectionConceptId?: string;
  granuleUr?: string;
  /** `<start>/<end>`; a bare instant is sent as `t/t` (granuleQueryFromParams stores it so already). */
  temporal?: string;
  cloudCover?: string;
  /** User bounding box `w,s,e,n`, intersected with the request geometry. */
  boundingBox?: Bounds;
  /** CMR sort keys, `-` prefix = descending (sent as `sort_key[]`). */
  sortKey?: string[];
  orbitNumber?: number;
  /** CMR additional-attribute filters (sent as `attribute[]`). */
  attribute?: string[];
  /** Maximum number of granules taken per search (default 100). */
  itemsLimit: number;
  /** Stop searching once the union of footprints covers the search geometry (default true). */
  exitWhenFull: boolean;
  /** Drop a granule whose footprint equals one already taken (default false). */
  skipCovered: boolean;
  /** Degrees the search geometry is grown by before the coverage test (0..1). */
  coverageTolerance: number;
}

/** What the request covers, in EPSG:4326 (a tile's bounds, a bbox, a feature's bounds, a point). */
export type SearchArea = { kind: 'bbox'; bounds: Bounds } | { kind: 'point'; lon: number; lat: number } | { kind: 'none' };

export interface GranuleAsset {
  /** `assets_regex` match, else "0", "1", … in RelatedUrls order. */
  key: string;
  /** `GET DATA` https link. */
  href?: string;
  /** `GET DATA VIA DIRECT ACCESS` s3 link. */
  directHref?: string;
  /** File name (last path segment) of the link, e.g. `X.B04.tif`. */
  fileName?: string;
  /** Extension of the file name with its dot, lower-case, e.g. `.tif`, `.nc` (`''` when none). */
  ext?: string;
}

export interface Granule {
  /** meta.concept-id, e.g. G3263856929-LPCLOUD */
  id: string;
  granuleUr: string;
  collectionConceptId: string;
  temporal: { start: string | null; end: string | null };
  /** Footprint as GeoJSON (EPSG:4326), null when the record has none we understand. */
  footprint: Geometry | null;
  /** Envelope of the footprint (west may exceed east across the antimeridian). */
  bbox: Bounds | null;
  cloudCover: number | null;
  /** The UMM-G record as received (for listings). */
  umm: Record<string, unknown>;
  meta: Record<string, unknown>;
}
