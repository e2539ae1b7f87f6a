/** Dataset location, band selection and read options (TiTiler's path/layer/dataset dependencies). */
import { READ_RESAMPLING, WARP_RESAMPLING } from '../../raster/resampling.ts';
import type { ReadOptions } from '../../readers/read-options.ts';
import { fail, isProblem, Problems } from '../validation/issues.ts';
import { P, parsePyFloat } from '../validation/params.ts';

export const urlParam = {
  url: P.str().required().describe('Dataset URL: local path or file:// under the allowed roots, http(s)://, or s3://bucket/key.'),
};

/** Most `bidx` values in one request (hyperspectral files have a few hundred bands). */
export const MAX_BIDX = 1000;
/** Longest band-math expression (characters); its nesting depth is bounded by the expression parser. */
export const MAX_EXPRESSION_LENGTH = 4096;
/** Deepest parenthesis nesting of an expression (the parser and code generator recurse on it). */
export const MAX_EXPRESSION_DEPTH = 64;

/** A band-math expression parameter: bounded in length and nesting before anything parses it. */
export const expressionValue = () =>
  P.str()
    .maxLength(MAX_EXPRESSION_LENGTH)
    .check((v) => {
      let depth = 0;
      for (let i = 0; i < v.length; i++) {
        const ch = v.charCodeAt(i);
        if (ch === 40 /* ( */ || ch === 91 /* [ */) depth++;
        else if (ch === 41 || ch === 93) depth--;
        if (depth > MAX_EXPRESSION_DEPTH) return fail(Problems.value(`expression nests deeper than ${MAX_EXPRESSION_DEPTH} levels`));
      }
      return undefined;
    });

export const bidxExpressionParams = {
  bidx: P.int().list(MAX_BIDX).describe('Dataset band indexes (1-based), repeatable: `bidx=1&bidx=2`.'),
  expression: expressionValue().describe("rio-tiler band math over b1..bN, e.g. `(b2-b1)/(b2+b1)`; several outputs separated by ';'."),
};

/** `nodata`: anything Python's float() accepts ("nan", "inf", "-inf", numbers), like TiTiler's `float(nodata)`. */
const nodataParam = P.custom<number>(
  (raw) => {
    const v = parsePyFloat(raw);
    if (isProblem(v)) return fail(Problems.value(`could not convert string to float: '${raw}'`));
    // Infinity only by name: a literal that overflows (1e400) is a mistake, not a nodata value.
    if (Math.abs(v) === Infinity && !/^\s*[+-]?inf(inity)?\s*$/i.test(raw)) return fail(Problems.finite());
    return v;
  },
  { anyOf: [{ type: 'number' }, { type: 'string', enum: ['nan', 'inf', '-inf'] }] },
).describe("Overwrite the dataset's internal nodata value.");

export const datasetParams = {
  nodata: nodataParam,
  unscale: P.bool().default(false).describe("Apply the dataset's internal scale and offset."),
  resampling: P.literal(READ_RESAMPLING).default('nearest').describe('Read resampling method.'),
  reproject: P.literal(WARP_RESAMPLING).default('nearest').describe('Warp resampling method (used only when re-projecting).'),
};

/** The reader options of parsed `datasetParams`. */
export function readOptions(p: { nodata?: number; unscale: boolean; resampling: ReadOptions['resampling']; reproject: ReadOptions['reproject'] }): ReadOptions {
  return { nodata: p.nodata, unscale: p.unscale, resampling: p.resampling, reproject: p.reproject };
}
