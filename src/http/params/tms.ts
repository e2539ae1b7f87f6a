/** `tileMatrixSetId` path parameter: one of the 13 TMS ids. */
import { TMS_IDS } from '../../geo/tms.ts';
import { P } from '../validation/params.ts';

export const tmsPathParam = {
  tileMatrixSetId: P.literal(TMS_IDS).path().describe('Identifier selecting one of the TileMatrixSetId supported.'),
};
