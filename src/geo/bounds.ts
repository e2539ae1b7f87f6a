/** Axis-aligned bounds `[minX, minY, maxX, maxY]` in some CRS's native axis units (x = easting/longitude). */
export type Bounds = [minX: number, minY: number, maxX: number, maxY: number];

/** A pixel window: fractional offsets/sizes allowed (GDAL-style floating point windows). */
export interface Window {
  col: number;
  row: number;
  width: number;
  height: number;
}

/** Strict overlap test (touching edges do not count), both boxes normalised first. */
export function boundsIntersect(a: Bounds, b: Bounds): boolean {
  const [a0, a1, a2, a3] = normalizeBounds(a);
  const [b0, b1, b2, b3] = normalizeBounds(b);
  return a0 < b2 && a2 > b0 && a3 > b1 && a1 < b3;
}

export function normalizeBounds(b: Bounds): Bounds {
  return [Math.min(b[0], b[2]), Math.min(b[1], b[3]), Math.max(b[0], b[2]), Math.max(b[1], b[3])];
}

export const boundsAreFinite = (b: Bounds): boolean => b.every(Number.isFinite);
