/**
 * titiler-cmr's size guard for time-series statistics and GIFs (spec titiler-cmr §5.7): the
 * collection's horizontal resolution from its UMM-C record, the area of interest in degrees, and
 * the pixels per step and over all steps against configured caps, with titiler-cmr's 400 texts.
 * An unknown resolution (no GenericResolutions, a missing dimension or unit, or a unit other than
 * meters and decimal degrees — titiler-cmr fails with 500 on the last) lets the request through.
 */
import { Errors } from '../../errors.ts';
import type { Bounds } from '../../geo/bounds.ts';

export interface SizeLimits {
  /** Estimated pixels of one step (TIME_SERIES_MAX_IMAGE_SIZE, 5.625e7). */
  maxImagePixels: number;
  /** Estimated pixels over all steps: statistics (1.5e10) and GIF (1e8). */
  maxStatisticsTotalPixels: number;
  maxImageTotalPixels: number;
}

export const DEFAULT_SIZE_LIMITS: SizeLimits = { maxImagePixels: 5.625e7, maxStatisticsTotalPixels: 1.5e10, maxImageTotalPixels: 1e8 };

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** [x, y] resolution in degrees from a UMM-C record, or null when unknown. Meters → × 1e-5 (titiler-cmr's factor). */
export function collectionResolution(umm: Record<string, unknown>): [number, number] | null {
  const domain = obj(obj(umm['SpatialExtent'])['HorizontalSpatialDomain']);
  const resolutions = obj(obj(domain['ResolutionAndCoordinateSystem'])['HorizontalDataResolution'])['GenericResolutions'];
  const first = Array.isArray(resolutions) ? obj(resolutions[0]) : {};
  const x = first['XDimension'];
  const y = first['YDimension'];
  const unit = first['Unit'];
  if (typeof x !== 'number' || typeof y !== 'number' || typeof unit !== 'string' || !(x > 0) || !(y > 0)) return null;
  const u = unit.trim().toLowerCase();
  if (u === 'meters') return [x * 1e-5, y * 1e-5];
  if (u === 'decimal degrees') return [x, y];
  return null;
}

export type GuardedEndpoint = 'statistics' | 'bbox';

/** Estimated pixels per step (0 when the resolution is unknown). */
export function pixelsPerStep(aoi: Bounds, resolution: [number, number] | null): number {
  if (resolution === null) return 0;
  return ((aoi[2] - aoi[0]) / resolution[0]) * ((aoi[3] - aoi[1]) / resolution[1]);
}

/** Throws titiler-cmr's 400 when a step or the whole series is estimated too large. */
export function checkSeriesSize(endpoint: GuardedEndpoint, aoi: Bounds, resolution: [number, number] | null, steps: number, limits: SizeLimits): void {
  if (steps === 0) return;
  const perStep = pixelsPerStep(aoi, resolution);
  if (perStep > limits.maxImagePixels) {
    throw Errors.badRequest(`The AOI for this request is too large for the /${endpoint} endpoint for this dataset. Try again with either a smaller AOI`);
  }
  const total = perStep * steps;
  const maxTotal = endpoint === 'statistics' ? limits.maxStatisticsTotalPixels : limits.maxImageTotalPixels;
  if (total > maxTotal) {
    const route = endpoint === 'statistics' ? '/timeseries/statistics' : '/timeseries/bbox';
    throw Errors.badRequest(
      `This request is too large for the ${route} endpoint for this dataset. Try again with either a smaller AOI or fewer time steps than ${steps}`,
    );
  }
}
