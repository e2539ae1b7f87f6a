/** `algorithm` + `algorithm_params` (TiTiler PostProcessParams). */
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';
import { ALGORITHM_IDS } from '../../raster/algorithms/index.ts';

export const algorithmParams = {
  algorithm: P.literal(ALGORITHM_IDS).describe('Algorithm name.'),
  algorithm_params: P.custom<Record<string, unknown>>(
    (raw) => {
      try {
        const v: unknown = JSON.parse(raw);
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(Problems.value('invalid JSON content'));
        return v as Record<string, unknown>;
      } catch {
        return fail(Problems.value('invalid JSON content'));
      }
    },
    { type: 'string', contentMediaType: 'application/json' },
  ).describe('Algorithm parameters as a JSON object.'),
};
