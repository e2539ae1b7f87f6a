/**
 * One CMR `granules.umm_json` item (`{meta, umm}`) → our Granule (titiler-cmr §4.1), with these
 * differences: `SingleDateTime` is read (start = end = that instant); footprints are cut at the
 * antimeridian (footprint.ts) and UMM `Points` give a Point/MultiPoint footprint; cloud cover falls
 * back to the `CLOUD_COVERAGE`/`CLOUD_COVER` additional attribute when `CloudCover` is absent (HLS).
 */
import { Errors } from '../errors.ts';
import { footprintFromUmm } from './footprint.ts';
import type { Granule } from './types.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const CLOUD_ATTRIBUTES = new Set(['CLOUD_COVERAGE', 'CLOUD_COVER', 'CLOUDCOVER']);

export function parseGranule(item: { meta: Record<string, unknown>; umm: Record<string, unknown> }): Granule {
  if (!isObject(item) || !isObject(item.meta) || !isObject(item.umm)) {
    throw Errors.upstream('CMR sent a granule record without "meta" and "umm" objects');
  }
  const { meta, umm } = item;
  const id = text(meta['concept-id']) ?? '';
  const footprint = footprintFromUmm(umm['SpatialExtent']);
  return {
    id,
    granuleUr: text(meta['native-id']) ?? text(umm['GranuleUR']) ?? id,
    collectionConceptId: text(meta['collection-concept-id']) ?? '',
    temporal: temporalExtent(umm['TemporalExtent']),
    footprint: footprint.geometry,
    bbox: footprint.bbox,
    cloudCover: cloudCover(umm),
    umm,
    meta,
  };
}

function temporalExtent(t: unknown): Granule['temporal'] {
  if (!isObject(t)) return { start: null, end: null };
  const range = t['RangeDateTime'];
  if (isObject(range)) return { start: text(range['BeginningDateTime']) ?? null, end: text(range['EndingDateTime']) ?? null };
  const single = text(t['SingleDateTime']) ?? null;
  return { start: single, end: single };
}

function cloudCover(umm: Record<string, unknown>): number | null {
  const direct = umm['CloudCover'];
  if (typeof direct === 'number' && Number.isFinite(direct)) return direct;
  const attributes = Array.isArray(umm['AdditionalAttributes']) ? umm['AdditionalAttributes'] : [];
  for (const a of attributes) {
    if (!isObject(a) || typeof a['Name'] !== 'string' || !CLOUD_ATTRIBUTES.has(a['Name'].toUpperCase())) continue;
    const first: unknown = Array.isArray(a['Values']) ? a['Values'][0] : undefined;
    const value = typeof first === 'string' && first.trim() !== '' ? Number(first) : typeof first === 'number' ? first : NaN;
    if (Number.isFinite(value)) return value;
  }
  return null;
}
