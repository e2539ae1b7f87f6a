/**
 * numexpr's value kinds and how they map to our dtypes.
 *
 * numexpr computes 8/16-bit integers and int32 as `int` (int32), uint32 as `long` (int64),
 * float32 as `float`, float64 as `double`; comparisons give `bool`. An operation runs in the
 * highest kind of its operands (bool < int < long < float < double), except true division of
 * integers (double) and the math functions (integers → double).
 *
 * We have no int64 or bool dtype: `long` results are float64 (exact up to 2^53; int64 overflow
 * does not wrap) and `bool` results are uint8 0/1.
 */
import type { DType } from '../../dtype.ts';

export type Kind = 'bool' | 'int' | 'long' | 'float' | 'double';

const RANK: Record<Kind, number> = { bool: 0, int: 1, long: 2, float: 3, double: 4 };

export const rank = (k: Kind): number => RANK[k];

export function commonKind(...kinds: Kind[]): Kind {
  let best: Kind = 'bool';
  for (const k of kinds) if (RANK[k] > RANK[best]) best = k;
  return best;
}

export function kindOfDtype(dtype: DType): Kind {
  switch (dtype) {
    case 'uint32':
      return 'long';
    case 'float32':
      return 'float';
    case 'float64':
      return 'double';
    default:
      return 'int';
  }
}

/** dtype of the stacked blocks (numpy result type of bool/int32/int64/float32/float64 blocks). */
export function stackedDtype(kinds: readonly Kind[]): DType {
  const has = (k: Kind): boolean => kinds.includes(k);
  if (has('double') || has('long')) return 'float64';
  if (has('float')) return has('int') ? 'float64' : 'float32';
  if (has('int')) return 'int32';
  return 'uint8';
}

/** numpy.nan_to_num bounds: the largest finite value of the kind (float or double). */
export const FLOAT32_MAX = 3.4028234663852886e38;
