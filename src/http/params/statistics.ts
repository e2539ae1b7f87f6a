/** Statistics and histogram options (TiTiler StatisticsParams, HistogramParams, CoverScaleParams). */
import type { StatisticsOptions } from '../../raster/statistics.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

const BINS_PATTERN = '^\\d+(,\\d+)*$';
const BINS_RE = /^\d+(,\d+)*$/;
// two "parseable floats": optional spaces, optional '-', digits, optional .digits, optional e+digits
const FLOAT_PART = ' *-?\\d+(\\.\\d+)?(e\\d+)? *';
const RANGE_PATTERN = `^${FLOAT_PART},${FLOAT_PART}$`;
const RANGE_RE = new RegExp(RANGE_PATTERN);

/**
 * Most histogram bins (a count, or edges − 1). numpy would allocate any count; 10,000 bins keep the
 * answer under ~0.5 MB per band and the work linear in the pixels.
 */
export const MAX_HISTOGRAM_BINS = 10_000;

export const statisticsParams = {
  categorical: P.bool().default(false).describe('Return statistics for categorical dataset.'),
  c: P.float().list().describe('Pixel values for which counts are reported (categorical mode).'),
  p: P.int().ge(0).le(100).listDefault([2, 98]).describe('Percentile values.'),
};

export const histogramParams = {
  histogram_bins: P.custom<number | number[]>(
    (raw) => {
      if (!BINS_RE.test(raw)) return fail(Problems.pattern(BINS_PATTERN));
      const parts = raw.split(',').map(Number);
      if (parts.length === 1) {
        const n = parts[0]!;
        if (n < 1) return fail(Problems.value('histogram_bins must be at least 1'));
        return n <= MAX_HISTOGRAM_BINS ? n : fail(Problems.value(`histogram_bins must be at most ${MAX_HISTOGRAM_BINS}`));
      }
      if (parts.length > MAX_HISTOGRAM_BINS + 1) return fail(Problems.value(`histogram_bins takes at most ${MAX_HISTOGRAM_BINS + 1} bin edges`));
      if (!parts.every(Number.isFinite)) return fail(Problems.finite());
      for (let i = 1; i < parts.length; i++) {
        if (parts[i] < parts[i - 1]) return fail(Problems.value('bins must increase monotonically'));
      }
      return parts;
    },
    { type: 'string', pattern: BINS_PATTERN, 'x-maximum-bins': MAX_HISTOGRAM_BINS },
  ).describe(
    `Number of equal-width bins (at most ${MAX_HISTOGRAM_BINS}), or a comma-separated increasing list of at most ${MAX_HISTOGRAM_BINS + 1} bin edges (default 10).`,
  ),
  histogram_range: P.custom<[number, number]>(
    (raw) => {
      if (!RANGE_RE.test(raw)) return fail(Problems.pattern(RANGE_PATTERN));
      const [a, b] = raw.split(',').map((s) => Number(s.trim()));
      if (!Number.isFinite(a) || !Number.isFinite(b)) return fail(Problems.finite());
      if (a > b) return fail(Problems.value('histogram_range minimum must be less than or equal to maximum'));
      return [a, b];
    },
    { type: 'string', pattern: RANGE_PATTERN },
  ).describe('Comma-separated lower and upper bounds of the bins (default: data min and max).'),
};

export const coverScaleParam = {
  cover_scale: P.int().gt(0).le(1000).default(10).describe('Rasterization factor used to estimate pixel coverage by the geometry.'),
};

/** The statistics options of parsed `statisticsParams` and `histogramParams`. */
export function statisticsOptions(p: {
  categorical: boolean;
  c?: number[];
  p: number[];
  histogram_bins?: number | number[];
  histogram_range?: [number, number];
}): StatisticsOptions {
  return { categorical: p.categorical, categories: p.c, percentiles: p.p, histogramBins: p.histogram_bins ?? 10, histogramRange: p.histogram_range };
}
