/** Rendering parameters: rescale, color_formula, return_mask, colormap_name, colormap. */
import { COLORMAP_NAMES, parseColormapParam, type ColorMap } from '../../raster/colormap/index.ts';
import { isRastileError } from '../../errors.ts';
import { isProblemText, parseColorFormula, parseRescale, type ColorFormula } from '../../raster/render/index.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

export const renderParams = {
  rescale: P.custom<[number, number]>(
    (raw) => {
      const r = parseRescale([raw]);
      if (isProblemText(r)) return fail(Problems.value(r.problem));
      const [lo, hi] = r[0]!;
      // Deliberate deviation from TiTiler (which passes nan/inf on to numpy): finite and ordered.
      if (!Number.isFinite(lo) || !Number.isFinite(hi)) return fail(Problems.value('rescale bounds must be finite numbers'));
      if (lo > hi) return fail(Problems.value('rescale minimum must be less than or equal to maximum'));
      return r[0]!;
    },
    { type: 'string', title: 'Min/Max data Rescaling' },
  )
    .list()
    .describe("comma (',') delimited Min,Max range. Can set multiple time for multiple bands."),
  color_formula: P.custom<ColorFormula>(
    (raw) => {
      try {
        return parseColorFormula(raw);
      } catch {
        return fail(Problems.value('invalid color formula'));
      }
    },
    { type: 'string' },
  ).describe('rio-color formula (info: https://github.com/mapbox/rio-color)'),
  return_mask: P.bool().default(true).describe('Add mask to the output data.'),
};

/** Most entries of a user colormap (a uint16 value→colour table has at most 65,536). */
export const MAX_COLORMAP_ENTRIES = 65_536;

function colormapDomainProblem(cmap: ColorMap): string | null {
  if (cmap.kind === 'discrete' && cmap.entries.size > MAX_COLORMAP_ENTRIES) return `colormap has more than ${MAX_COLORMAP_ENTRIES} entries`;
  if (cmap.kind !== 'intervals') return null;
  if (cmap.entries.length > MAX_COLORMAP_ENTRIES) return `colormap has more than ${MAX_COLORMAP_ENTRIES} entries`;
  for (let i = 0; i < cmap.entries.length; i++) {
    const [lo, hi] = cmap.entries[i]![0];
    if (Number.isNaN(lo) || Number.isNaN(hi)) return `colormap interval ${i} has a NaN bound`;
    if (lo > hi) return `colormap interval ${i} has its lower bound ${lo} above its upper bound ${hi}`;
  }
  return null;
}

export const colormapParams = {
  colormap_name: P.literal(COLORMAP_NAMES).describe('Colormap name'),
  colormap: P.custom<ColorMap | null>(
    (raw) => {
      try {
        const cmap = parseColormapParam(raw);
        const problem = cmap ? colormapDomainProblem(cmap) : null;
        return problem ? fail(Problems.value(problem)) : cmap;
      } catch (err) {
        // Malformed JSON is a validation error (422); a well-formed value with a bad colour
        // stays a 400 InvalidColorFormat like TiTiler's.
        if (isRastileError(err, 'InvalidColorFormat')) throw err;
        return fail(Problems.value(isRastileError(err) ? err.message : 'Could not parse the colormap value.'));
      }
    },
    { type: 'string', contentMediaType: 'application/json' },
  ).describe('JSON encoded custom Colormap'),
};
