/** CRS parameters (`crs`, `coord_crs`, `dst_crs`): CURIE brackets, EPSG codes, URIs, WKT, PROJ strings. */
import type { Crs } from '../../geo/crs.ts';
import { parseCrs } from '../../geo/crs.ts';
import { crsDomainProblem } from './crs-domain.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

const crsValue = () =>
  P.custom<Crs>(
    (raw) => {
      let crs: Crs;
      try {
        crs = parseCrs(raw);
      } catch {
        return fail(Problems.value('invalid CRS format'));
      }
      // A definition proj4js reads but that describes no projection (PROJ refuses it): 422.
      const problem = crsDomainProblem(crs, raw);
      return problem === null ? crs : fail(Problems.value(`invalid CRS definition: ${problem}`));
    },
    { type: 'string' },
  ).maxLength(MAX_CRS_LENGTH);

/** Longest CRS text (WKT2 of a projected CRS is a few KB). */
const MAX_CRS_LENGTH = 16_384;

/** A CRS parameter (for declarations under other names, e.g. `bbox-crs`). */
export const crsValueParam = (): ReturnType<typeof crsValue> => crsValue();

export const coordCrsParam = { coord_crs: crsValue().describe('CRS of the input coordinates (default EPSG:4326).') };
export const dstCrsParam = { dst_crs: crsValue().describe('Output CRS.') };
export const crsParam = { crs: crsValue().describe('CRS of the returned bounds/geometry (default EPSG:4326).') };
