/**
 * Nearest-neighbour sampling positions, GDAL RasterIO style: output pixel i of a window
 * [off, off+size) resampled to n pixels reads source index floor(off + (i + 0.5)·size/n).
 * Returns -1 for positions outside [0, limit) (boundless reads).
 */
export function nearestIndexes(off: number, size: number, n: number, limit: number): Int32Array {
  const out = new Int32Array(n);
  const step = size / n;
  for (let i = 0; i < n; i++) {
    const v = Math.floor(off + (i + 0.5) * step);
    out[i] = v >= 0 && v < limit ? v : -1;
  }
  return out;
}

/** Smallest [start, end) integer span covering the valid entries of an index list (or null). */
export function indexSpan(indexes: Int32Array): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < indexes.length; i++) {
    const v = indexes[i];
    if (v < 0) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo === Infinity ? null : [lo, hi + 1];
}
