/**
 * The functions a band-math block may call: numexpr's function table (numexpr 2.8), minus the ones
 * that cannot work on per-pixel rasters here.
 */

export type FunctionClass =
  /** Element-wise math; int inputs give float64, float32 stays float32 (numexpr `minkind='float'`). */
  | 'math'
  | 'where'
  /** copy(x), ones_like(x): no minimum kind, int inputs give float64. */
  | 'copy'
  | 'ones_like'
  /** real(x) / imag(x) of a real input: float64. */
  | 'real'
  | 'imag'
  /** Element-wise minimum / maximum of two or more arguments (an extension, see below). */
  | 'minmax';

export interface FunctionSpec {
  cls: FunctionClass;
  /** Exact argument count, or the minimum when `variadic`. */
  arity: number;
  variadic?: boolean;
  /** JS Math function for 'math' and 'minmax'. */
  math?: string;
}

const math = (fn: string, arity = 1): FunctionSpec => ({ cls: 'math', arity, math: fn });

export const FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map<string, FunctionSpec>([
  ['sqrt', math('sqrt')],
  ['sin', math('sin')],
  ['cos', math('cos')],
  ['tan', math('tan')],
  ['arcsin', math('asin')],
  ['arccos', math('acos')],
  ['arctan', math('atan')],
  ['sinh', math('sinh')],
  ['cosh', math('cosh')],
  ['tanh', math('tanh')],
  ['arcsinh', math('asinh')],
  ['arccosh', math('acosh')],
  ['arctanh', math('atanh')],
  ['log', math('log')],
  ['log10', math('log10')],
  ['log1p', math('log1p')],
  ['exp', math('exp')],
  ['expm1', math('expm1')],
  ['abs', math('abs')],
  ['floor', math('floor')],
  ['ceil', math('ceil')],
  ['arctan2', math('atan2', 2)],
  // fmod is generated as the JS remainder operator (C fmod semantics)
  ['fmod', math('fmod', 2)],
  ['where', { cls: 'where', arity: 3 }],
  ['copy', { cls: 'copy', arity: 1 }],
  ['ones_like', { cls: 'ones_like', arity: 1 }],
  ['real', { cls: 'real', arity: 1 }],
  ['imag', { cls: 'imag', arity: 1 }],
  // numexpr's min/max are whole-array reductions (one scalar for the whole tile), which is not a
  // per-pixel band-math result; here min(a, b, ...) / max(a, b, ...) are element-wise instead.
  ['min', { cls: 'minmax', arity: 2, variadic: true, math: 'min' }],
  ['max', { cls: 'minmax', arity: 2, variadic: true, math: 'max' }],
]);

/** numexpr functions that exist but are refused, with the reason shown to the user. */
export const REFUSED_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['sum', 'reductions are not supported in band math'],
  ['prod', 'reductions are not supported in band math'],
  ['complex', 'complex numbers are not supported'],
  ['conj', 'complex numbers are not supported'],
  ['contains', 'string operations are not supported'],
]);
