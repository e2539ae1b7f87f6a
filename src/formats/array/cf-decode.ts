/**
 * CF decoding of a variable's values as xarray does it when opening with `mask_and_scale=True`
 * (what titiler-cmr and titiler.xarray read): `_FillValue` and `missing_value` become NaN,
 * `scale_factor`/`add_offset` are applied, and the result is a float type chosen by xarray's rule
 * (Debian's xarray: masking turns integers of ≤ 2 bytes into float32, wider ones into float64;
 * scaling then keeps float32, turns integers of ≤ 2 bytes without add_offset into float32, else float64). `valid_range`/`valid_min`/`valid_max` do not mask (xarray does not
 * either); they are reported, in decoded units, as the band's value range.
 */
import type { DType } from '../../dtype.ts';
import type { ArrayVariable, AttrValue } from './array-model.ts';
import { readDType } from './hyperslab.ts';

export interface CfDecoding {
  /** The type read from the chunks. */
  rawDType: DType;
  /** The type of the decoded values. */
  dtype: DType;
  /** Whether values are transformed (masked to NaN and/or scaled); when false they are copied as read. */
  decoded: boolean;
  /** Raw values that mean "missing" (NaN matched by isNaN). */
  missing: number[];
  scale: number;
  offset: number;
  /** valid_min/valid_max (or valid_range) in decoded units, when given. */
  validRange: [number, number] | null;
}

const numbers = (v: AttrValue | undefined): number[] => {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) return (v as readonly unknown[]).filter((x): x is number => typeof x === 'number');
  return [];
};

/**
 * The CF decoding of `v`. `fillIsMissing`: the variable's `fillValue` counts as `_FillValue` when
 * no such attribute exists (Zarr: xarray stores `_FillValue` as the array's `fill_value`).
 */
export function cfDecoding(v: ArrayVariable, fillIsMissing = false): CfDecoding | null {
  const rawDType = readDType(v.dtype);
  if (rawDType === null) return null;
  const a = v.attrs;
  const fill = numbers(a['_FillValue']);
  if (fill.length === 0 && fillIsMissing && v.fillValue !== null) fill.push(v.fillValue);
  const missing = [...fill, ...numbers(a['missing_value'])];
  const scaleAttr = numbers(a['scale_factor'])[0];
  const offsetAttr = numbers(a['add_offset'])[0];
  const scale = scaleAttr ?? 1;
  const offset = offsetAttr ?? 0;
  const scaled = scaleAttr !== undefined || offsetAttr !== undefined;
  const decoded = scaled || missing.length > 0;
  const bytes = v.dtype === 'int64' || v.dtype === 'uint64' ? 8 : rawDType.endsWith('64') ? 8 : rawDType.endsWith('32') ? 4 : rawDType.endsWith('16') ? 2 : 1;
  const isFloatRaw = rawDType === 'float32' || rawDType === 'float64';
  // xarray masks first (CFMaskCoder: integers of ≤ 2 bytes → float32, wider → float64), then
  // scales (CFScaleOffsetCoder's _choose_float_dtype on the masked type).
  let dtype: DType = rawDType;
  let size = bytes;
  let float = isFloatRaw;
  if (missing.length > 0 && !float) {
    dtype = size <= 2 ? 'float32' : 'float64';
    size = size <= 2 ? 4 : 8;
    float = true;
  }
  if (scaled) {
    if (float) dtype = size <= 4 ? 'float32' : 'float64';
    else dtype = size <= 2 && offsetAttr === undefined ? 'float32' : 'float64';
  }
  let lo = numbers(a['valid_min'])[0];
  let hi = numbers(a['valid_max'])[0];
  const range = numbers(a['valid_range']);
  if (range.length >= 2) {
    lo ??= range[0];
    hi ??= range[1];
  }
  const validRange: [number, number] | null = lo !== undefined && hi !== undefined ? [lo * scale + offset, hi * scale + offset] : null;
  return { rawDType, dtype, decoded, missing, scale, offset, validRange };
}

/** Decodes one raw value (the hot loops inline the same arithmetic). */
export function decodeValue(d: CfDecoding, raw: number): number {
  for (const m of d.missing) if (raw === m || (m !== m && raw !== raw)) return NaN;
  return raw * d.scale + d.offset;
}
