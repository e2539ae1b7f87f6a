/**
 * Algorithm parameters: pydantic v2 lax-mode validation of the `algorithm_params` JSON object
 * (TiTiler's algorithm models allow extra keys, which are ignored) and the JSON-schema property
 * objects `/algorithms/{id}` reports. Written by hand because the rules to copy are pydantic's
 * (bool/str/float coercions, message wording), which no JSON-schema validator reproduces.
 */
import { Errors } from '../../errors.ts';
import { constraintText, pyFloat, pyRepr, pyTypeName } from '../../util/python.ts';

export interface ParamSpec {
  name: string;
  type: 'integer' | 'number';
  /** `Optional[...]`: null is accepted (and is the default). */
  nullable?: boolean;
  /** Omitted for a required parameter. */
  default?: number | null;
  minimum?: number;
  maximum?: number;
  description?: string;
}

/** Validated parameters, defaults filled in. */
export type AlgorithmParams = Readonly<Record<string, number | null>>;

interface Issue {
  loc: string;
  msg: string;
  type: string;
  input: unknown;
}

const INT_TEXT = /^[+-]?\d(_?\d)*(\.0*)?$/;

function coerce(spec: ParamSpec, v: unknown): number | null | Omit<Issue, 'loc' | 'input'> {
  if (v === null && spec.nullable) return null;
  if (spec.type === 'integer') {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { type: 'finite_number', msg: 'Input should be a finite number' };
      if (!Number.isInteger(v)) {
        return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part' };
      }
      return v;
    }
    if (typeof v === 'string') {
      const s = v.trim();
      if (!INT_TEXT.test(s)) {
        return { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' };
      }
      return Math.trunc(Number(s.replace(/_/g, '')));
    }
    return { type: 'int_type', msg: 'Input should be a valid integer' };
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const f = pyFloat(v);
    if (f === null) return { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' };
    return f;
  }
  return { type: 'float_type', msg: 'Input should be a valid number' };
}

function check(spec: ParamSpec, raw: unknown): number | null | Omit<Issue, 'loc' | 'input'> {
  const v = coerce(spec, raw);
  if (v === null || typeof v === 'object') return v;
  // NaN fails both comparisons, as in pydantic.
  if (spec.minimum !== undefined && !(v >= spec.minimum)) {
    return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${constraintText(spec.minimum)}` };
  }
  if (spec.maximum !== undefined && !(v <= spec.maximum)) {
    return { type: 'less_than_equal', msg: `Input should be less than or equal to ${constraintText(spec.maximum)}` };
  }
  return v;
}

/**
 * Validates `input` against `specs`; unknown keys are ignored. Throws `InvalidAlgorithmParams`
 * with pydantic's `str(ValidationError)` text (without the documentation-link lines).
 */
export function validateParams(modelName: string, specs: readonly ParamSpec[], input: Record<string, unknown>): AlgorithmParams {
  const out: Record<string, number | null> = {};
  const issues: Issue[] = [];
  for (const spec of specs) {
    if (!Object.hasOwn(input, spec.name)) {
      if (spec.default === undefined) issues.push({ loc: spec.name, type: 'missing', msg: 'Field required', input });
      else out[spec.name] = spec.default;
      continue;
    }
    const raw = input[spec.name];
    const r = check(spec, raw);
    if (r !== null && typeof r === 'object') issues.push({ loc: spec.name, input: raw, ...r });
    else out[spec.name] = r;
  }
  if (issues.length > 0) {
    const head = `${issues.length} validation error${issues.length > 1 ? 's' : ''} for ${modelName}`;
    const body = issues.map((i) => `${i.loc}\n  ${i.msg} [type=${i.type}, input_value=${pyRepr(i.input)}, input_type=${pyTypeName(i.input)}]`);
    throw Errors.invalidAlgorithmParams([head, ...body].join('\n'), { context: { parameter: 'algorithm_params' } });
  }
  return Object.freeze(out);
}

const titleOf = (name: string): string =>
  name
    .split('_')
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
    .join(' ');

/** pydantic v2 `model_json_schema()["properties"][name]` for one parameter (keys sorted, as pydantic emits them). */
export function paramJsonSchema(spec: ParamSpec): Record<string, unknown> {
  const range: Record<string, unknown> = {};
  if (spec.maximum !== undefined) range.maximum = spec.maximum;
  if (spec.minimum !== undefined) range.minimum = spec.minimum;
  const prop: Record<string, unknown> = spec.nullable ? { anyOf: [{ ...range, type: spec.type }, { type: 'null' }] } : { ...range, type: spec.type };
  if (spec.default !== undefined) prop.default = spec.default;
  if (spec.description !== undefined) prop.description = spec.description;
  prop.title = titleOf(spec.name);
  return Object.fromEntries(Object.entries(prop).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
