/**
 * The sorted distinct valid values of a band with their pixel counts and summed coverage weights,
 * from which every statistic is derived (raster/statistics.ts): small-integer dtypes (8/16-bit)
 * are counted in a direct-index array, other dtypes are copied as sortable 32/64-bit keys and
 * radix-sorted together with their weights. No per-pixel allocation.
 */
import type { DType, TypedArray } from '../dtype.ts';
import { BUFFER_POOL } from '../util/buffer-pool.ts';
import { float32Key, float32KeyBits, sortValidKeys32 } from './sort-keys32.ts';

/** Sorted distinct valid values with their pixel counts and (optional) summed coverage weights. */
export interface Distinct {
  keys: Float64Array;
  counts: Float64Array;
  /** Summed coverage weight per key; null when there is no coverage (weights = counts). */
  weights: Float64Array | null;
  n: number;
  validPixels: number;
}

export function distinctValues(values: TypedArray, mask: Uint8Array, coverage: Float32Array | Float64Array | undefined, dtype: DType): Distinct {
  switch (dtype) {
    case 'uint8':
      return countSmallInts(values, mask, coverage, 256, 0);
    case 'int8':
      return countSmallInts(values, mask, coverage, 256, 128);
    case 'uint16':
      return countSmallInts(values, mask, coverage, 65536, 0);
    case 'int16':
      return countSmallInts(values, mask, coverage, 65536, 32768);
    default:
      return sortDistinct(values, mask, coverage, dtype);
  }
}

/**
 * Counting scratch for countSmallInts, kept by the module and left all zero after each use (the
 * extraction pass clears what it reads): a 16-bit band no longer allocates and zero-fills two
 * fresh 512 KiB arrays per call (fresh pages, a page fault each), which cost about as much as
 * counting a 400k-pixel band. Counts are integers < 2³² (exact in Uint32); weights are summed in
 * pixel order in float64, as before, so every statistic is unchanged.
 */
const scratch = new Map<number, { counts: Uint32Array; weights: Float64Array | null }>();

/** Direct-index counting for 8/16-bit integers (value + offset in [0, size)). */
function countSmallInts(values: TypedArray, mask: Uint8Array, coverage: Float32Array | Float64Array | undefined, size: number, offset: number): Distinct {
  // one pair per size (256, 65536): a value outside [0, size) is dropped by the typed array, as before
  let own = scratch.get(size);
  if (own === undefined) scratch.set(size, (own = { counts: new Uint32Array(size), weights: null }));
  const hist = own.counts;
  const wsum = coverage ? (own.weights ??= new Float64Array(size)) : null;
  const npix = values.length;
  if (wsum && coverage) {
    for (let i = 0; i < npix; i++) {
      if (mask[i] === 0) continue;
      const j = values[i] + offset;
      hist[j]++;
      wsum[j] += coverage[i];
    }
  } else {
    for (let i = 0; i < npix; i++) if (mask[i] !== 0) hist[values[i] + offset]++;
  }
  let n = 0;
  for (let j = 0; j < size; j++) if (hist[j] !== 0) n++;
  const keys = new Float64Array(n);
  const counts = new Float64Array(n);
  const weights = wsum ? new Float64Array(n) : null;
  let k = 0;
  let valid = 0;
  for (let j = 0; j < size; j++) {
    const c = hist[j];
    if (c === 0) continue;
    keys[k] = j - offset;
    counts[k] = c;
    hist[j] = 0;
    if (weights && wsum) {
      weights[k] = wsum[j];
      wsum[j] = 0;
    }
    valid += c;
    k++;
  }
  return { keys, counts, weights, n, validPixels: valid };
}

/**
 * Copy the valid values as order-preserving unsigned keys (with their coverage weights), sort
 * them with an LSD radix sort and run-length encode. Hand-written: the typed-array sort takes
 * about 110 ms for 1M floats and cannot carry the weights along; this is several times faster.
 */
function sortDistinct(values: TypedArray, mask: Uint8Array, coverage: Float32Array | Float64Array | undefined, dtype: DType): Distinct {
  if (dtype !== 'float64' && !coverage && values.length >= 1 << 16) return sortDistinct32(values, mask, dtype);
  const npix = values.length;
  const wide = dtype === 'float64';
  // gathered straight into arrays of the band's size (no separate counting pass), then trimmed
  const all: SortKeys = {
    lo: new Uint32Array(npix),
    hi: wide ? new Uint32Array(npix) : null,
    w: coverage ? new Float64Array(npix) : null,
  };
  let valid: number;
  if (dtype === 'float32') valid = gatherFloat32(values as Float32Array, mask, coverage, all);
  else if (wide) valid = gatherFloat64(values as Float64Array, mask, coverage, all);
  else valid = gatherInt(values, mask, coverage, all, dtype === 'int32' ? 0x80000000 : 0);
  const keys: SortKeys = { lo: all.lo.subarray(0, valid), hi: all.hi ? all.hi.subarray(0, valid) : null, w: all.w ? all.w.subarray(0, valid) : null };
  const sorted = radixSort(keys);

  // run-length encode the sorted keys, then decode only the distinct ones
  const lo = sorted.lo;
  const hi = sorted.hi;
  const sw = sorted.w;
  let m = 0;
  for (let i = 0; i < valid; i++) if (i === 0 || lo[i] !== lo[i - 1] || (hi !== null && hi[i] !== hi[i - 1])) m++;
  const runs: SortKeys = { lo: new Uint32Array(m), hi: hi ? new Uint32Array(m) : null, w: null };
  const runCounts = new Float64Array(m);
  const runWeights = sw ? new Float64Array(m) : null;
  for (let i = 0, k = -1; i < valid; i++) {
    if (i === 0 || lo[i] !== lo[i - 1] || (hi !== null && hi[i] !== hi[i - 1])) {
      k++;
      runs.lo[k] = lo[i];
      if (runs.hi && hi) runs.hi[k] = hi[i];
    }
    runCounts[k]++;
    if (runWeights && sw) runWeights[k] += sw[i];
  }
  const decoded = decodeKeys(runs, dtype);

  // -0 and +0 are distinct keys but one value, as in numpy.unique: merge equal neighbours
  let n = 0;
  for (let k = 0; k < m; k++) if (k === 0 || decoded[k] !== decoded[k - 1]) n++;
  if (n === m) return { keys: decoded, counts: runCounts, weights: runWeights, n, validPixels: valid };
  const out = new Float64Array(n);
  const counts = new Float64Array(n);
  const weights = runWeights ? new Float64Array(n) : null;
  for (let k = 0, j = -1; k < m; k++) {
    if (k === 0 || decoded[k] !== decoded[k - 1]) out[++j] = decoded[k];
    counts[j] += runCounts[k];
    if (weights && runWeights) weights[j] += runWeights[k];
  }
  return { keys: out, counts, weights, n, validPixels: valid };
}

interface SortKeys {
  lo: Uint32Array;
  hi: Uint32Array | null;
  w: Float64Array | null;
}

/** float32 values → unsigned keys in value order (sort-keys32.ts `float32Key`). */
function gatherFloat32(values: Float32Array, mask: Uint8Array, coverage: Float32Array | Float64Array | undefined, k: SortKeys): number {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const { lo, w } = k;
  let j = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask[i] === 0 || values[i] - values[i] !== 0) continue;
    lo[j] = float32Key(bits[i]);
    if (w && coverage) w[j] = coverage[i];
    j++;
  }
  return j;
}

function gatherFloat64(values: Float64Array, mask: Uint8Array, coverage: Float32Array | Float64Array | undefined, k: SortKeys): number {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  const { lo, hi, w } = k;
  const h32 = hi as Uint32Array;
  let j = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask[i] === 0 || values[i] - values[i] !== 0) continue;
    const h = bits[2 * i + 1];
    const l = bits[2 * i];
    const neg = h >>> 31 === 1;
    h32[j] = neg ? ~h >>> 0 : (h | 0x80000000) >>> 0;
    lo[j] = neg ? ~l >>> 0 : l;
    if (w && coverage) w[j] = coverage[i];
    j++;
  }
  return j;
}

/** int32 (flip = 0x80000000) or uint32 (flip = 0) values. */
function gatherInt(values: TypedArray, mask: Uint8Array, coverage: Float32Array | Float64Array | undefined, k: SortKeys, flip: number): number {
  const { lo, w } = k;
  let j = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask[i] === 0) continue;
    lo[j] = (values[i] ^ flip) >>> 0;
    if (w && coverage) w[j] = coverage[i];
    j++;
  }
  return j;
}

function decodeKeys(k: SortKeys, dtype: DType): Float64Array {
  const n = k.lo.length;
  const out = new Float64Array(n);
  const lo = k.lo;
  if (dtype === 'float32') {
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    for (let i = 0; i < n; i++) {
      u[0] = float32KeyBits(lo[i]);
      out[i] = f[0];
    }
  } else if (dtype === 'float64') {
    const hi = k.hi as Uint32Array;
    const f = new Float64Array(1);
    const u = new Uint32Array(f.buffer);
    for (let i = 0; i < n; i++) {
      const h = hi[i];
      const neg = h >>> 31 === 0;
      u[1] = neg ? ~h >>> 0 : h & 0x7fffffff;
      u[0] = neg ? ~lo[i] >>> 0 : lo[i];
      out[i] = f[0];
    }
  } else if (dtype === 'int32') {
    for (let i = 0; i < n; i++) out[i] = (lo[i] ^ 0x80000000) | 0;
  } else {
    for (let i = 0; i < n; i++) out[i] = lo[i];
  }
  return out;
}

/**
 * Stable LSD radix sort by the unsigned (hi, lo) keys, 11 or 16 bits per pass, carrying the weights. Passes whose digit is constant are skipped.
 */
function radixSort(keys: SortKeys): SortKeys {
  const n = keys.lo.length;
  let cur = keys;
  let tmp: SortKeys = {
    lo: new Uint32Array(n),
    hi: keys.hi ? new Uint32Array(n) : null,
    w: keys.w ? new Float64Array(n) : null,
  };
  // large inputs: two 16-bit passes per word beat three 11-bit ones (half the counting table
  // per pass no longer fits the cache, but a whole pass over the data is saved)
  const bits = n >= 1 << 18 ? 16 : 11;
  const size = 1 << bits;
  const mask = size - 1;
  const count = new Uint32Array(size);
  const words: Array<'lo' | 'hi'> = keys.hi ? ['lo', 'hi'] : ['lo'];
  for (const word of words) {
    for (let shift = 0; shift < 32; shift += bits) {
      const src = cur[word] as Uint32Array;
      count.fill(0);
      for (let i = 0; i < n; i++) count[(src[i] >>> shift) & mask]++;
      if (n === 0 || count[(src[0] >>> shift) & mask] === n) continue;
      let sum = 0;
      for (let d = 0; d < size; d++) {
        const c = count[d];
        count[d] = sum;
        sum += c;
      }
      scatter(src, shift, mask, count, cur, tmp);
      const t = cur;
      cur = tmp;
      tmp = t;
    }
  }
  return cur;
}

function scatter(src: Uint32Array, shift: number, mask: number, count: Uint32Array, from: SortKeys, to: SortKeys): void {
  const n = src.length;
  const sLo = from.lo;
  const dLo = to.lo;
  const sHi = from.hi;
  const dHi = to.hi;
  const sW = from.w;
  const dW = to.w;
  // one loop per payload combination keeps each loop monomorphic and branch-free
  if (sHi && dHi && sW && dW) {
    for (let i = 0; i < n; i++) {
      const pos = count[(src[i] >>> shift) & mask]++;
      dLo[pos] = sLo[i];
      dHi[pos] = sHi[i];
      dW[pos] = sW[i];
    }
  } else if (sHi && dHi) {
    for (let i = 0; i < n; i++) {
      const pos = count[(src[i] >>> shift) & mask]++;
      dLo[pos] = sLo[i];
      dHi[pos] = sHi[i];
    }
  } else if (sW && dW) {
    for (let i = 0; i < n; i++) {
      const pos = count[(src[i] >>> shift) & mask]++;
      dLo[pos] = sLo[i];
      dW[pos] = sW[i];
    }
  } else {
    for (let i = 0; i < n; i++) dLo[count[(src[i] >>> shift) & mask]++] = sLo[i];
  }
}

/**
 * 32-bit keys without weights (float32, int32, uint32 statistics without coverage), the common
 * case: keys gathered with both 16-bit digit histograms in the same pass, two scatters, one
 * run-length pass. NaN costs the gather's one comparison and nothing after.
 */
function sortDistinct32(values: TypedArray, mask: Uint8Array, dtype: DType): Distinct {
  const npix = values.length;
  // the two key arrays are pooled scratch (no garbage per request); only the results are allocated
  const scratchA = BUFFER_POOL.bytes(4 * npix);
  const scratchB = BUFFER_POOL.bytes(4 * npix);
  try {
    return sortDistinct32Into(
      values,
      mask,
      dtype,
      new Uint32Array(scratchA.buffer, scratchA.byteOffset, npix),
      new Uint32Array(scratchB.buffer, scratchB.byteOffset, npix),
    );
  } finally {
    BUFFER_POOL.release(scratchA.buffer, scratchB.buffer);
  }
}

function sortDistinct32Into(values: TypedArray, mask: Uint8Array, dtype: DType, keysA: Uint32Array, keysB: Uint32Array): Distinct {
  const a = sortValidKeys32(values, mask, dtype, keysA, keysB);
  const valid = a.length;
  const b = a.buffer === keysA.buffer && a.byteOffset === keysA.byteOffset ? keysB : keysA;
  // run-length: the distinct keys into b, then their counts
  let m = 0;
  for (let i = 0; i < valid; i++) {
    const k = a[i];
    if (m === 0 || k !== b[m - 1]) b[m++] = k;
  }
  const runCounts = new Float64Array(m);
  for (let i = 0, j = 0; i < valid; i++) {
    if (a[i] !== b[j]) j++;
    runCounts[j]++;
  }
  const decoded = decodeKeys({ lo: b.subarray(0, m), hi: null, w: null }, dtype);
  // -0 and +0 are distinct keys but one value, as in numpy.unique: merge them
  let n = 0;
  for (let k = 0; k < m; k++) if (k === 0 || decoded[k] !== decoded[k - 1]) n++;
  if (n === m) return { keys: decoded, counts: runCounts, weights: null, n, validPixels: valid };
  const keys = new Float64Array(n);
  const counts = new Float64Array(n);
  for (let k = 0, j = -1; k < m; k++) {
    if (k === 0 || decoded[k] !== decoded[k - 1]) keys[++j] = decoded[k];
    counts[j] += runCounts[k];
  }
  return { keys, counts, weights: null, n, validPixels: valid };
}
