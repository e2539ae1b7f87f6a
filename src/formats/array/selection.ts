/**
 * The `sel` dimension-selection language of titiler.xarray: `dim=value` or `dim=method::value`
 * (nearest, pad/ffill, backfill/bfill), grouped per dimension, values cast to the dimension's
 * coordinate type (numbers, or CF times when decoded) and resolved to one index. Where
 * titiler-cmr answers 500 (several values on one dimension, two methods, a dimension that does
 * not exist or was squeezed, a value not on the axis) this answers 400 naming the dimension and
 * what exists.
 */
import { Errors } from '../../errors.ts';
import { axisValueToTime, timeToAxisValue, type CfTimeAxis } from './cf-time.ts';

export const SEL_METHODS = ['nearest', 'pad', 'ffill', 'backfill', 'bfill'] as const;
export type SelMethod = (typeof SEL_METHODS)[number];

/** The regex titiler.xarray validates each `sel` item with (422 when it does not match). */
export const SEL_PATTERN = '^[^=]+=((nearest|pad|ffill|backfill|bfill)::)?([^=:]|:[^:])+$';

export interface DimSelection {
  dim: string;
  method: SelMethod | null;
  value: string;
}

/** Parses and groups `sel` items: one selection per dimension. */
export function parseSelection(items: readonly string[]): Map<string, DimSelection> {
  const out = new Map<string, DimSelection>();
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw Errors.badRequest(`Invalid sel '${item}': expected dim=value or dim=method::value`);
    const dim = item.slice(0, eq).trim();
    let value = item.slice(eq + 1);
    let method: SelMethod | null = null;
    const sep = value.indexOf('::');
    if (sep >= 0) {
      const m = value.slice(0, sep);
      if (!(SEL_METHODS as readonly string[]).includes(m)) throw Errors.badRequest(`Invalid sel '${item}': method must be one of ${SEL_METHODS.join(', ')}`);
      method = m as SelMethod;
      value = value.slice(sep + 2);
    }
    const prev = out.get(dim);
    if (prev !== undefined) {
      if (prev.value !== value) {
        throw Errors.badRequest(`sel selects several values of dimension '${dim}' (${prev.value}, ${value}): select one value per dimension`);
      }
      if (prev.method !== method) throw Errors.badRequest(`sel gives two methods for dimension '${dim}' (${prev.method ?? 'exact'}, ${method ?? 'exact'})`);
      continue;
    }
    out.set(dim, { dim, method, value });
  }
  return out;
}

/** What is known about the axis a selection applies to. */
export interface SelAxis {
  dim: string;
  /** Coordinate values (raw, in the coordinate's units), or null when the dimension has no coordinate variable (index positions). */
  values: Float64Array | null;
  /** The CF time axis when the coordinate is a decoded time. */
  time: CfTimeAxis | null;
}

const show = (axis: SelAxis, v: number): string => (axis.time !== null ? axisValueToTime(axis.time, v) : String(v));

/** The index of the axis a selection picks; BadRequest when the value cannot be cast or is not on the axis. */
export function resolveSelection(axis: SelAxis, sel: DimSelection): number {
  const values = axis.values ?? Float64Array.from({ length: 0 });
  const n = axis.values !== null ? values.length : 0;
  let target: number;
  if (axis.time !== null) {
    target = timeToAxisValue(axis.time, sel.value.trim());
  } else {
    target = Number(sel.value.trim());
    if (sel.value.trim() === '' || !Number.isFinite(target)) {
      throw Errors.badRequest(`sel value '${sel.value}' of dimension '${axis.dim}' is not a number`);
    }
  }
  if (axis.values === null) {
    // No coordinate variable: positions 0..n-1 (xarray has no index to select on; positions are the useful reading).
    if (!Number.isInteger(target)) throw Errors.badRequest(`Dimension '${axis.dim}' has no coordinate variable: sel takes an index (0, 1, …)`);
    return target;
  }
  if (n === 0) throw Errors.badRequest(`Dimension '${axis.dim}' is empty`);
  const range = (): string => `${show(axis, Math.min(values[0], values[n - 1]))} … ${show(axis, Math.max(values[0], values[n - 1]))}`;
  let best = -1;
  switch (sel.method) {
    case null: {
      const tol = axis.time !== null ? 1e-3 / axis.time.unitMs : 0; // times: within a microsecond
      for (let i = 0; i < n; i++) if (Math.abs(values[i] - target) <= tol) return i;
      throw Errors.badRequest(
        `sel ${axis.dim}=${sel.value}: no such value on dimension '${axis.dim}' (${n} values, ${range()}); use ${axis.dim}=nearest::${sel.value} for the nearest`,
      );
    }
    case 'nearest': {
      let d = Infinity;
      for (let i = 0; i < n; i++) {
        const e = Math.abs(values[i] - target);
        if (e < d) {
          d = e;
          best = i;
        }
      }
      return best;
    }
    case 'pad':
    case 'ffill':
      for (let i = 0; i < n; i++) if (values[i] <= target && (best < 0 || values[i] > values[best])) best = i;
      break;
    case 'backfill':
    case 'bfill':
      for (let i = 0; i < n; i++) if (values[i] >= target && (best < 0 || values[i] < values[best])) best = i;
      break;
  }
  if (best < 0)
    throw Errors.badRequest(
      `sel ${axis.dim}=${sel.method}::${sel.value}: no value of dimension '${axis.dim}' ${sel.method === 'pad' || sel.method === 'ffill' ? 'at or before' : 'at or after'} it (${range()})`,
    );
  return best;
}
