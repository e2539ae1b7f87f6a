/**
 * Summary statistics of a variable on a deterministic sample (GET /compatibility): at most
 * SAMPLE_CHUNKS stored chunks spread evenly over the chunk grid (first and last included), CF
 * decoded, NaN/fill dropped, then at most SAMPLE_VALUES values taken at an even stride.
 * titiler-cmr samples 100 000 random elements (non-deterministic); this reads a bounded number
 * of chunks and always answers the same for the same file.
 */
import type { ArrayFile, ArrayVariable } from './array-model.ts';
import { cfDecoding } from './cf-decode.ts';
import type { ChunkCache } from './chunk-cache.ts';

export const SAMPLE_CHUNKS = 4;
export const SAMPLE_VALUES = 100_000;

export interface SampleStats {
  min: number;
  max: number;
  mean: number;
  p01: number;
  p05: number;
  p95: number;
  p99: number;
}

/** numpy's default (linear) percentile of sorted values. */
function percentile(sorted: Float64Array, q: number): number {
  const pos = ((sorted.length - 1) * q) / 100;
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** The chunk coordinates sampled: `count` chunks at evenly spaced linear positions of the chunk grid. */
function sampleChunks(v: ArrayVariable, count: number): number[][] {
  const grid = v.shape.map((s, a) => Math.max(1, Math.ceil(s / v.chunkShape[a])));
  const total = grid.reduce((a, b) => a * b, 1);
  const picks = new Set<number>();
  for (let i = 0; i < Math.min(count, total); i++) picks.add(count <= 1 ? 0 : Math.round((i * (total - 1)) / (Math.min(count, total) - 1 || 1)));
  return [...picks].map((linear) => {
    const coords = new Array<number>(grid.length);
    for (let a = grid.length - 1; a >= 0; a--) {
      coords[a] = linear % grid[a];
      linear = Math.floor(linear / grid[a]);
    }
    return coords;
  });
}

/** Statistics of `v` on the deterministic sample, or null when it holds no valid numeric value. */
export async function sampleStatistics(file: ArrayFile, v: ArrayVariable, cache: ChunkCache, signal?: AbortSignal): Promise<SampleStats | null> {
  const d = cfDecoding(v, file.driver === 'Zarr');
  if (d === null || v.shape.some((s) => s === 0)) return null;
  const values: number[] = [];
  for (const coords of sampleChunks(v, SAMPLE_CHUNKS)) {
    const chunk = await cache.get(file, v, coords, signal);
    if (chunk === null) continue;
    // Only the part of an edge chunk inside the array.
    const n = v.chunkShape.length;
    const idx = new Array<number>(n).fill(0);
    for (let k = 0; k < chunk.length; k++) {
      let inside = true;
      for (let a = 0; a < n; a++) if (coords[a] * v.chunkShape[a] + idx[a] >= v.shape[a]) inside = false;
      if (inside) {
        const raw = chunk[k];
        const missing = raw !== raw || d.missing.some((m) => m === raw);
        if (!missing) values.push(d.decoded ? raw * d.scale + d.offset : raw);
      }
      for (let a = n - 1; a >= 0; a--) {
        if (++idx[a] < v.chunkShape[a]) break;
        idx[a] = 0;
      }
    }
  }
  if (values.length === 0) return null;
  const stride = Math.max(1, Math.ceil(values.length / SAMPLE_VALUES));
  const picked = Float64Array.from({ length: Math.ceil(values.length / stride) }, (_, i) => values[i * stride]);
  picked.sort();
  let sum = 0;
  for (const x of picked) sum += x;
  return {
    min: picked[0],
    max: picked[picked.length - 1],
    mean: sum / picked.length,
    p01: percentile(picked, 1),
    p05: percentile(picked, 5),
    p95: percentile(picked, 95),
    p99: percentile(picked, 99),
  };
}
