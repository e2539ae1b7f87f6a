/** A regular-expression query parameter (`assets_regex` and its legacy alias `bands_regex`). */
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

/** Parses to a RegExp; a malformed one is a 422 naming the parameter. */
export const regexValue = (name: string) =>
  P.custom<RegExp>(
    (raw) => {
      try {
        return new RegExp(raw);
      } catch {
        return fail(Problems.value(`invalid regular expression for ${name}: '${raw}'`));
      }
    },
    { type: 'string' },
  );
