/**
 * Compiles parsed band-math blocks into one typed-array loop per block (`new Function` over
 * source produced by codegen.ts from the whitelisted tree; nothing else is executable).
 *
 * The value kinds depend on the input dtypes (numexpr promotes uint8 to int32, keeps float32…),
 * so the loops are generated on first use for each combination of input dtypes and cached.
 * Compiled expressions are memoised per parsed expression (parseExpression memoises by text), so
 * requests with the same expression share one compiled object: it holds only the generated loops
 * (pure functions of their arguments); every evaluation allocates its own outputs.
 */
import { Errors } from '../../errors.ts';
import { allocate, dtypeOf, type DType, type TypedArray } from '../../dtype.ts';
import { collectBands, type Expr } from './ast.ts';
import { BlockCodegen, HELPERS } from './codegen.ts';
import { FLOAT32_MAX, kindOfDtype, stackedDtype, type Kind } from './kinds.ts';
import type { ParsedExpression } from './parse.ts';

export interface EvaluatedExpression {
  /** One output band per block, all of `dtype`. */
  bands: TypedArray[];
  dtype: DType;
  /** 255 where every referenced input band is valid, else 0. */
  mask: Uint8Array;
}

export interface CompiledExpression {
  blocks: string[];
  bandIndexes: number[];
  /**
   * inputs[k] / masks[k] are band k (1-based; unused entries may be undefined), all at least
   * `length` long. A missing mask means "all valid".
   */
  evaluate(inputs: ReadonlyArray<TypedArray | undefined>, masks: ReadonlyArray<Uint8Array | undefined>, length: number): EvaluatedExpression;
}

type BlockLoop = (inputs: ReadonlyArray<TypedArray | undefined>, out: TypedArray, n: number) => void;

interface Program {
  dtype: DType;
  loops: BlockLoop[];
}

const COMPILED = new WeakMap<ParsedExpression, CompiledExpression>();

/** The compiled form of `parsed`; the same parsed object always gives the same compiled one. */
export function compileExpression(parsed: ParsedExpression): CompiledExpression {
  let compiled = COMPILED.get(parsed);
  if (compiled === undefined) {
    compiled = compileUncached(parsed);
    COMPILED.set(parsed, compiled);
  }
  return compiled;
}

function compileUncached(parsed: ParsedExpression): CompiledExpression {
  const trees = parsed.trees;
  const blockBands = trees.map((t) => [...collectBands(t, new Set<number>())].sort((a, b) => a - b));
  const programs = new Map<string, Program>();

  const programFor = (inputs: ReadonlyArray<TypedArray | undefined>): Program => {
    const dtypes = new Map<number, DType>();
    for (const k of parsed.bandIndexes) {
      const arr = inputs[k];
      if (!arr) throw Errors.invalidExpression(`Invalid band/asset name 'b${k}'`);
      dtypes.set(k, dtypeOf(arr));
    }
    const key = parsed.bandIndexes.map((k) => dtypes.get(k)).join(',');
    let prog = programs.get(key);
    if (!prog) {
      prog = buildProgram(trees, blockBands, (k) => kindOfDtype(dtypes.get(k) as DType));
      programs.set(key, prog);
    }
    return prog;
  };

  return {
    blocks: parsed.blocks,
    bandIndexes: parsed.bandIndexes,
    evaluate(inputs, masks, length) {
      const prog = programFor(inputs);
      for (const k of parsed.bandIndexes) {
        if ((inputs[k] as TypedArray).length < length) throw Errors.internal(`band ${k} is shorter than ${length}`);
      }
      const bands = prog.loops.map((loop) => {
        const out = allocate(prog.dtype, length);
        loop(inputs, out, length);
        return out;
      });
      return { bands, dtype: prog.dtype, mask: combineMasks(parsed.bandIndexes, masks, length) };
    },
  };
}

/** AND of the referenced bands' masks (255/0); a per-dataset mask shared by all bands is read once. */
function combineMasks(bandIndexes: number[], masks: ReadonlyArray<Uint8Array | undefined>, length: number): Uint8Array {
  const distinct = new Set<Uint8Array>();
  for (const k of bandIndexes) {
    const m = masks[k];
    if (m) distinct.add(m);
  }
  let out: Uint8Array | undefined;
  for (const m of distinct) {
    if (!out) {
      out = m.slice(0, length);
      continue;
    }
    for (let i = 0; i < length; i++) if (m[i] === 0) out[i] = 0;
  }
  return out ?? new Uint8Array(length).fill(255);
}

function buildProgram(trees: readonly Expr[], blockBands: number[][], bandKind: (k: number) => Kind): Program {
  const generated = trees.map((tree) => {
    const cg = new BlockCodegen(bandKind);
    try {
      return { val: cg.gen(tree), temps: cg.temps };
    } catch (err) {
      if (err instanceof RangeError) throw Errors.invalidExpression('expression is too deeply nested');
      throw err;
    }
  });
  const dtype = stackedDtype(generated.map((g) => g.val.kind));
  const loops = generated.map((g, i) => {
    const bands = blockBands[i];
    const reads = bands.map((k) => `const b${k} = in${k}[i];`).join(' ');
    const decl = bands.map((k) => `const in${k} = inputs[${k}];`).join(' ');
    const result = nanToNum(g.val.kind);
    const src =
      `"use strict"; return function (inputs, out, n) { ${decl} ` +
      `for (let i = 0; i < n; i++) { ${reads} ${g.temps.join(' ')} const r = ${g.val.code}; out[i] = ${result}; } };`;
    let factory: (h: typeof HELPERS, f: typeof Math.fround, m: Math) => BlockLoop;
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- source built only from whitelisted fragments (codegen.ts)
      factory = new Function('H', 'F', 'M', src) as typeof factory;
    } catch (err) {
      // V8's parser gives up on a few thousand nesting levels
      if (err instanceof RangeError) throw Errors.invalidExpression('expression is too deeply nested');
      throw err;
    }
    return factory(HELPERS, Math.fround, Math);
  });
  return { dtype, loops };
}

/** numpy.nan_to_num of the block result, in the block's own kind. */
function nanToNum(kind: Kind): string {
  if (kind === 'float') return `r !== r ? 0 : r === Infinity ? ${FLOAT32_MAX} : r === -Infinity ? -${FLOAT32_MAX} : r`;
  if (kind === 'double') return `r !== r ? 0 : r === Infinity ? ${Number.MAX_VALUE} : r === -Infinity ? -${Number.MAX_VALUE} : r`;
  return 'r';
}
