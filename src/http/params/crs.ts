/** CRS parameters (`crs`, `coord_crs`, `dst_crs`): CURIE brackets, EPSG codes, URIs, WKT, PROJ strings. */
import type { Crs } from '../../geo/crs.ts';
import { parseCrs } from '../../geo/crs.ts';
import { fail, Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

const crsValue = () =>
  P.custom<Crs>(
    (raw) => {
      try {
        return parseCrs(raw);
      } catch {
        return fail(Problems.value('invalid CRS format'));
      }
    },
    { type: 'string' },
  );

export const coordCrsParam = { coord_crs: crsValue().describe('CRS of the input coordinates (default EPSG:4326).') };
export const dstCrsParam = { dst_crs: crsValue().describe('Output CRS.') };
export const crsParam = { crs: crsValue().describe('CRS of the returned bounds/geometry (default EPSG:4326).') };
