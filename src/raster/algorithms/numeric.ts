/**
 * numpy's scalar semantics that the algorithms reproduce: round-half-to-even (`numpy.around`)
 * and Python/numpy float remainder. The C casts live in ../numpy-cast.ts.
 */

/** `numpy.finfo(float).tiny`: numpy.ma masks `a / b` where `|a| * tiny >= |b|` (its safe-divide domain). */
export const FLOAT64_TINY = 2.2250738585072014e-308;

/** `numpy.around(v)` / `numpy.rint(v)`: nearest integer, ties to even. */
export function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f; // exact for every finite double
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** `numpy.remainder` for floats: the result takes the sign of the divisor; x % 0 is NaN. */
export function floorMod(a: number, b: number): number {
  let m = a % b; // IEEE fmod, as npy_divmod starts from
  if (m !== 0) {
    if (b < 0 !== m < 0) m += b;
  } else {
    m = b < 0 ? -0 : 0;
  }
  return m;
}
