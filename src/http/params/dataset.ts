/** Dataset location, band selection and read options (TiTiler's path/layer/dataset dependencies). */
import { READ_RESAMPLING, WARP_RESAMPLING } from '../../raster/resampling.ts';
import type { ReadOptions } from '../../readers/read-options.ts';
import { fail, isProblem, Problems } from '../validation/issues.ts';
import { P, parsePyFloat } from '../validation/params.ts';

export const urlParam = {
  url: P.str().required().describe('Dataset URL: local path or file:// under the allowed roots, http(s)://, or s3://bucket/key.'),
};

export const bidxExpressionParams = {
  bidx: P.int().list().describe('Dataset band indexes (1-based), repeatable: `bidx=1&bidx=2`.'),
  expression: P.str().describe("rio-tiler band math over b1..bN, e.g. `(b2-b1)/(b2+b1)`; several outputs separated by ';'."),
};

/** `nodata`: anything Python's float() accepts ("nan", "inf", "-inf", numbers), like TiTiler's `float(nodata)`. */
const nodataParam = P.custom<number>(
  (raw) => {
    const v = parsePyFloat(raw);
    return isProblem(v) ? fail(Problems.value(`could not convert string to float: '${raw}'`)) : v;
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
