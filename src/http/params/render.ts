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
      return isProblemText(r) ? fail(Problems.value(r.problem)) : r[0];
    },
    { type: 'string', title: 'Min/Max data Rescaling' },
  )
    .list()
    .describe('comma (\',\') delimited Min,Max range. Can set multiple time for multiple bands.'),
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

export const colormapParams = {
  colormap_name: P.literal(COLORMAP_NAMES).describe("Colormap name"),
  colormap: P.custom<ColorMap | null>(
    (raw) => {
      try {
        return parseColormapParam(raw);
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
