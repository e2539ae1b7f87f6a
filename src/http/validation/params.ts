/**
 * Request parameters declared once: the same declaration parses the request (pydantic-like lax
 * rules and error texts) and documents it in the OpenAPI description.
 *
 * We do not use Fastify's Ajv validation: its coercions and error texts differ from FastAPI's, and
 * TiTiler clients rely on the 422 bodies. Parsers are plain functions returning a value or a
 * ProblemBox, so the hot path throws nothing.
 */
import { pyFloat as pythonFloat } from '../../util/python.ts';
import { fail, isProblem, Problems, RequestValidationError, type Problem, type ProblemBox, type ValidationIssue } from './issues.ts';

export type JsonSchema = Record<string, unknown>;
export type Location = 'query' | 'path';

type ParseFn<T> = (raw: string) => T | ProblemBox;

/** How a parameter is read and documented (one type for Param and its covariant view ParamLike). */
export interface ParamOptions {
  location: Location;
  required: boolean;
  multi: boolean;
  defaultValue?: unknown;
  description?: string;
  name?: string;
  /** Documented with `deprecated: true`. */
  deprecated?: boolean;
  /** Parsed but left out of the OpenAPI document (legacy aliases). */
  hidden?: boolean;
  /** Most values a repeatable parameter takes (documented as `maxItems`). */
  maxItems?: number;
}

/** Every repeatable parameter is bounded: a query of 10,000 `bidx` is no band selection. */
export const DEFAULT_MAX_ITEMS = 100;

const QUERY_OPTIONAL: ParamOptions = { location: 'query', required: false, multi: false };

export class Param<T, Out = T | undefined> {
  /** Phantom field carrying the output type. */
  declare readonly _out: Out;
  constructor(
    readonly parseOne: ParseFn<T>,
    readonly schema: JsonSchema,
    readonly opts: ParamOptions = QUERY_OPTIONAL,
    readonly checks: ReadonlyArray<(v: T) => ProblemBox | undefined> = [],
  ) {}

  private with<O>(patch: Partial<ParamOptions>, schemaPatch: JsonSchema = {}, checks = this.checks): Param<T, O> {
    return new Param<T, O>(this.parseOne, { ...this.schema, ...schemaPatch }, { ...this.opts, ...patch }, checks);
  }

  required(): Param<T, Exclude<Out, undefined>> {
    return this.with<Exclude<Out, undefined>>({ required: true });
  }

  default(value: T): Param<T, T> {
    return this.with<T>({ defaultValue: value }, { default: value });
  }

  /** A repeatable query parameter (`?bidx=1&bidx=2`). */
  list(maxItems = DEFAULT_MAX_ITEMS): Param<T, T[] | undefined> {
    return new Param<T, T[] | undefined>(this.parseOne, { type: 'array', items: this.schema, maxItems }, { ...this.opts, multi: true, maxItems }, this.checks);
  }

  listDefault(value: T[], maxItems = DEFAULT_MAX_ITEMS): Param<T, T[]> {
    return new Param<T, T[]>(
      this.parseOne,
      { type: 'array', items: this.schema, default: value, maxItems },
      { ...this.opts, multi: true, defaultValue: value, maxItems },
      this.checks,
    );
  }

  path(): Param<T, T> {
    return this.with<T>({ location: 'path', required: true });
  }

  describe(description: string): this {
    return this.with<Out>({ description }) as unknown as this;
  }

  as(name: string): this {
    return this.with<Out>({ name }) as unknown as this;
  }

  /** Still accepted, documented as deprecated. */
  deprecated(): this {
    return this.with<Out>({ deprecated: true }) as unknown as this;
  }

  /** A deprecated alias that is accepted but not documented. */
  hidden(): this {
    return this.with<Out>({ deprecated: true, hidden: true }) as unknown as this;
  }

  check(fn: (v: T) => ProblemBox | undefined, schemaPatch: JsonSchema = {}): this {
    return this.with<Out>({}, schemaPatch, [...this.checks, fn]) as unknown as this;
  }

  gt(limit: number): this {
    return this.check((v) => (typeof v === 'number' && !(v > limit) ? fail(Problems.gt(limit)) : undefined), {
      exclusiveMinimum: limit,
    });
  }

  ge(limit: number): this {
    return this.check((v) => (typeof v === 'number' && !(v >= limit) ? fail(Problems.ge(limit)) : undefined), {
      minimum: limit,
    });
  }

  le(limit: number): this {
    return this.check((v) => (typeof v === 'number' && !(v <= limit) ? fail(Problems.le(limit)) : undefined), {
      maximum: limit,
    });
  }

  /** Longest accepted string (documented as `maxLength`). */
  maxLength(limit: number): this {
    return this.check((v) => (typeof v === 'string' && v.length > limit ? fail(Problems.tooLongString(limit)) : undefined), { maxLength: limit });
  }

  parseValue(raw: string): T | ProblemBox {
    const v = this.parseOne(raw);
    if (isProblem(v)) return v;
    for (const check of this.checks) {
      const p = check(v);
      if (p) return p;
    }
    return v;
  }
}

// ---------------------------------------------------------------------------------------------
// Scalar parsers with pydantic v2 lax-mode rules.

const INT_RE = /^\s*[+-]?\d+(_\d+)*\s*$/;

function parseIntStrict(raw: string): number | ProblemBox {
  let n: number;
  if (!INT_RE.test(raw)) {
    // pydantic accepts "5.0"-like strings that denote an exact integer
    const f = Number(raw.trim());
    if (!(raw.trim() !== '' && Number.isInteger(f) && /^\s*[+-]?\d+\.0*\s*$/.test(raw))) return fail(Problems.int());
    n = f;
  } else {
    n = Number(raw.replace(/_/g, '').trim());
  }
  // Beyond 2^53 a JavaScript number no longer holds the integer that was sent.
  return Number.isSafeInteger(n) ? n : fail(Problems.intRange());
}

/** A finite Python float (`nan`, `inf` and overflowing literals such as `1e400` are refused). */
export function parseFiniteFloat(raw: string): number | ProblemBox {
  const n = pythonFloat(raw);
  if (n === null) return fail(Problems.float());
  return Number.isFinite(n) ? n : fail(Problems.finite());
}

/** Python's `float(str)` (the raster layer's parser), failing as pydantic's float_parsing. */
export function parsePyFloat(raw: string): number | ProblemBox {
  const n = pythonFloat(raw);
  return n === null ? fail(Problems.float()) : n;
}

const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

function parsePyBool(raw: string): boolean | ProblemBox {
  const s = raw.trim().toLowerCase();
  if (TRUE.has(s)) return true;
  if (FALSE.has(s)) return false;
  return fail(Problems.bool());
}

export const P = {
  str: (): Param<string> => new Param<string>((raw) => raw, { type: 'string' }),
  int: (): Param<number> => new Param<number>(parseIntStrict, { type: 'integer' }),
  /** Finite numbers only: NaN, ±Infinity and overflowing literals (`1e400`) are 422s. */
  float: (): Param<number> => new Param<number>(parseFiniteFloat, { type: 'number' }),
  bool: (): Param<boolean> => new Param<boolean>(parsePyBool, { type: 'boolean' }),
  literal: <const V extends string>(values: readonly V[]): Param<V> =>
    new Param<V>((raw) => ((values as readonly string[]).includes(raw) ? (raw as V) : fail(Problems.literal(values))), { type: 'string', enum: [...values] }),
  /** Like literal but reported as pydantic `enum` (used for image formats). */
  enumeration: <const V extends string>(values: readonly V[]): Param<V> =>
    new Param<V>((raw) => ((values as readonly string[]).includes(raw) ? (raw as V) : fail(Problems.enumeration(values))), {
      type: 'string',
      enum: [...values],
    }),
  pattern: (re: RegExp, pattern: string): Param<string> =>
    new Param<string>((raw) => (re.test(raw) ? raw : fail(Problems.pattern(pattern))), { type: 'string', pattern }),
  custom: <T>(parse: ParseFn<T>, schema: JsonSchema): Param<T> => new Param<T>(parse, schema),
  /** A rule over several parameters (see ParamRule). */
  rule: <V extends Record<string, unknown>>(names: ReadonlyArray<keyof V & string>, check: RuleCheck<V>, description: string): ParamRule<V> =>
    new ParamRule<V>(names, check, description),
} as const;

// ---------------------------------------------------------------------------------------------
// Rules across parameters (ordered pairs, products of sizes), declared next to the parameters.

/** A failed rule: which parameter (declaration key) is blamed, and why. */
export interface RuleFailure {
  key: string;
  problem: Problem;
}

export type RuleCheck<V> = (values: V) => RuleFailure | undefined;

/**
 * A rule over parameters of the same declaration, spread into it like a parameter under its own
 * key (`...{ _bbox_order: P.rule(...) }`). It runs after every parameter it names was parsed
 * without problem and given (defaults count); it is not a request parameter and is documented
 * only through its description, which `openApiParameters` appends to the blamed parameters.
 */
export class ParamRule<V extends Record<string, unknown> = Record<string, unknown>> implements ParamLike<undefined> {
  declare readonly _out: undefined;
  readonly schema: JsonSchema = {};
  readonly opts: ParamOptions = { location: 'query', required: false, multi: false, hidden: true };
  constructor(
    readonly names: ReadonlyArray<string>,
    readonly run: RuleCheck<V>,
    readonly description: string,
  ) {}
  parseValue(): undefined {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------

/** What parsing and documentation need from a parameter (covariant view of Param). */
export interface ParamLike<Out = unknown> {
  readonly _out: Out;
  readonly schema: JsonSchema;
  readonly opts: ParamOptions;
  parseValue(raw: string): unknown;
}

export type ParamDefs = Record<string, ParamLike>;
export type ParsedParams<D extends ParamDefs> = { [K in keyof D]: D[K]['_out'] };

export interface RawRequestParams {
  query: Record<string, string | string[] | undefined>;
  path: Record<string, string | undefined>;
}

/** Parse every declared parameter, collecting all problems (FastAPI reports them all at once). */
export function parseParams<D extends ParamDefs>(defs: D, raw: RawRequestParams): ParsedParams<D> {
  const out: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  const rawOf = new Map<string, unknown>();
  const failed = new Set<string>();
  const rules: ParamRule[] = [];
  for (const [key, def] of Object.entries(defs)) {
    if (def instanceof ParamRule) {
      rules.push(def);
      continue;
    }
    const name = def.opts.name ?? key;
    const source = def.opts.location === 'path' ? raw.path[name] : raw.query[name];
    const values = source === undefined ? [] : Array.isArray(source) ? source : [source];
    const before = issues.length;
    if (values.length === 0) {
      if (def.opts.required) issues.push({ type: 'missing', loc: [def.opts.location, name], msg: 'Field required', input: null });
      else out[key] = def.opts.defaultValue;
      if (issues.length > before) failed.add(key);
      continue;
    }
    rawOf.set(key, def.opts.multi ? values : values[values.length - 1]);
    if (def.opts.multi && def.opts.maxItems !== undefined && values.length > def.opts.maxItems) {
      issues.push({ ...Problems.tooLongList(def.opts.maxItems, values.length), loc: [def.opts.location, name], input: values.slice(0, 3) });
      failed.add(key);
      continue;
    }
    if (def.opts.multi) {
      const parsed: unknown[] = [];
      values.forEach((v, i) => {
        const r = def.parseValue(v);
        if (isProblem(r)) issues.push(toIssue(r, [def.opts.location, name, i], v));
        else parsed.push(r);
      });
      out[key] = parsed;
    } else {
      // FastAPI takes the last value of a repeated scalar query parameter.
      const v = values[values.length - 1];
      const r = def.parseValue(v);
      if (isProblem(r)) issues.push(toIssue(r, [def.opts.location, name], v));
      else out[key] = r;
    }
    if (issues.length > before) failed.add(key);
  }
  for (const rule of rules) {
    if (rule.names.some((k) => failed.has(k) || out[k] === undefined)) continue;
    const f = rule.run(out);
    if (!f) continue;
    const def = defs[f.key];
    const name = def?.opts.name ?? f.key;
    issues.push(toIssue(fail(f.problem), [def?.opts.location ?? 'query', name], rawOf.get(f.key) ?? null));
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  return out as ParsedParams<D>;
}

function toIssue(box: ProblemBox, loc: Array<string | number>, input: unknown): ValidationIssue {
  const { subLoc, input: overrideInput, ...problem } = box.problem;
  const issue: ValidationIssue = {
    type: problem.type,
    loc: subLoc ? [...loc, ...subLoc] : loc,
    msg: problem.msg,
    input: overrideInput ?? input,
  };
  if (problem.ctx) issue.ctx = problem.ctx;
  return issue;
}

/** OpenAPI parameter objects for a set of definitions (hidden aliases left out). */
export function openApiParameters(defs: ParamDefs): JsonSchema[] {
  const rules = Object.values(defs).filter((d): d is ParamRule => d instanceof ParamRule);
  return Object.entries(defs)
    .filter(([, def]) => !def.opts.hidden)
    .map(([key, def]) => {
      const p: JsonSchema = {
        name: def.opts.name ?? key,
        in: def.opts.location,
        required: def.opts.required,
        schema: def.schema,
      };
      const ruleText = rules.filter((r) => r.names.includes(key)).map((r) => r.description);
      const description = [def.opts.description, ...ruleText].filter(Boolean).join(' ');
      if (description) p['description'] = description;
      if (def.opts.deprecated) p['deprecated'] = true;
      if (def.opts.multi) {
        p['style'] = 'form';
        p['explode'] = true;
      }
      return p;
    });
}
