/**
 * The spatial axes of an array variable: which dimensions are x and y (titiler-cmr §6.2 alias
 * lists), and how their 1-D coordinates become a north-up, west-to-east pixel grid — an affine
 * origin and step plus, per output column/row, the source index it reads (0–360 longitudes
 * wrapped to −180…180 and reordered, ascending latitudes flipped).
 */
export const X_ALIASES = ['lon', 'longitude', 'LON', 'LONGITUDE', 'Lon', 'Longitude', 'xCoordinates'] as const;
export const Y_ALIASES = ['lat', 'latitude', 'LAT', 'LATITUDE', 'Lat', 'Latitude', 'yCoordinates'] as const;

/** The x and y dimension names of `dims` (`x`/`y` themselves, else the first alias of each list present), or null. */
export function spatialDims(dims: readonly string[]): { x: string; y: string } | null {
  if (dims.includes('x') && dims.includes('y')) return { x: 'x', y: 'y' };
  const x = dims.includes('x') ? 'x' : X_ALIASES.find((a) => dims.includes(a));
  const y = dims.includes('y') ? 'y' : Y_ALIASES.find((a) => dims.includes(a));
  return x !== undefined && y !== undefined ? { x, y } : null;
}

export interface OutputAxis {
  size: number;
  /** Output position → source index along the axis. */
  map: Int32Array;
  /** Coordinate of the outer edge of output position 0 (west edge, or north edge). */
  origin: number;
  /** Signed step per output position (x: > 0, y: < 0). */
  step: number;
  /** The sorted (and for x possibly wrapped) cell-centre coordinates, in output order. */
  centres: Float64Array;
}

/**
 * The output axis of 1-D coordinates: sorted ascending (`descending` false, x) or descending
 * (y: north first). `wrap` maps longitudes > 180 to −180…180 first. The step is the mean spacing
 * (rioxarray's reading of regular coordinates); `fallbackStep` is used for a single cell.
 */
export function outputAxis(coords: Float64Array, descending: boolean, wrap: boolean, fallbackStep: number): OutputAxis {
  const n = coords.length;
  const values = new Float64Array(n);
  let needsWrap = false;
  for (let i = 0; i < n; i++) if (coords[i] > 180) needsWrap = true;
  for (let i = 0; i < n; i++) values[i] = wrap && needsWrap ? ((((coords[i] + 180) % 360) + 360) % 360) - 180 : coords[i];
  const map = sortedOrder(values, descending);
  const centres = new Float64Array(n);
  for (let i = 0; i < n; i++) centres[i] = values[map[i]];
  let step = n > 1 ? (centres[n - 1] - centres[0]) / (n - 1) : Math.abs(fallbackStep) * (descending ? -1 : 1);
  if (step === 0) step = descending ? -1 : 1;
  return { size: n, map, origin: centres[0] - step / 2, step, centres };
}

/**
 * The indices of `values` in ascending (or descending) order, ties in index order. Coordinates
 * are almost always monotonic already: that is checked first (the sort of a 14400-long axis costs
 * ~10 ms on a cold process), NaN falls through to the sort.
 */
function sortedOrder(values: Float64Array, descending: boolean): Int32Array {
  const n = values.length;
  let up = true;
  let down = true;
  let strictUp = true;
  let strictDown = true;
  for (let i = 1; i < n; i++) {
    const a = values[i - 1];
    const b = values[i];
    if (!(b >= a)) up = false;
    if (!(b > a)) strictUp = false;
    if (!(b <= a)) down = false;
    if (!(b < a)) strictDown = false;
  }
  const map = new Int32Array(n);
  if (descending ? down : up) {
    for (let i = 0; i < n; i++) map[i] = i;
    return map;
  }
  if (descending ? strictUp : strictDown) {
    for (let i = 0; i < n; i++) map[i] = n - 1 - i;
    return map;
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => (descending ? values[b] - values[a] : values[a] - values[b]) || a - b);
  map.set(order);
  return map;
}

/** The identity axis of a dimension without coordinates (pixel positions). */
export function indexAxis(size: number, descending: boolean): OutputAxis {
  const coords = Float64Array.from({ length: size }, (_, i) => i);
  return outputAxis(coords, descending, false, 1);
}

/** A run of consecutive output positions reading consecutive source indices (either direction). */
export interface AxisRun {
  /** First output position (relative to the window) and count. */
  out: number;
  length: number;
  /** Smallest source index read. */
  srcMin: number;
}

/** Splits output positions [start, start+length) into runs whose source indices are contiguous. */
export function axisRuns(map: Int32Array, start: number, length: number): AxisRun[] {
  const runs: AxisRun[] = [];
  let runStart = 0;
  let dir = 0;
  for (let i = 1; i <= length; i++) {
    const d = i < length ? map[start + i] - map[start + i - 1] : 0;
    const cont = i < length && (d === 1 || d === -1) && (dir === 0 || d === dir);
    if (cont) {
      dir = d;
      continue;
    }
    let lo = map[start + runStart];
    for (let j = runStart; j < i; j++) lo = Math.min(lo, map[start + j]);
    runs.push({ out: runStart, length: i - runStart, srcMin: lo });
    runStart = i;
    dir = 0;
  }
  return runs;
}
