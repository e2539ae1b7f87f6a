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

/**
 * Nearest sampling of a 0/255 mask onto an output grid: output (i, j) takes
 * `src[(rows[i] - row0) * srcWidth + cols[j] - col0]`, or 0 where rows[i] or cols[j] is -1.
 * `cols`/`rows` come from nearestIndexes (source coordinates; the source array starts at
 * col0, row0). Masks are never kernel-resampled: they must stay 0/255.
 */
export function sampleMaskNearest(src: Uint8Array, srcWidth: number, col0: number, row0: number, cols: Int32Array, rows: Int32Array): Uint8Array {
  const w = cols.length;
  const out = new Uint8Array(w * rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (r < 0) continue;
    const srcRow = (r - row0) * srcWidth - col0;
    const dstRow = i * w;
    for (let j = 0; j < w; j++) {
      const c = cols[j];
      if (c >= 0) out[dstRow + j] = src[srcRow + c];
    }
  }
  return out;
}
