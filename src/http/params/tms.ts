/** `tileMatrixSetId`: one of the 13 TMS ids, in the path or (default-TMS routes) in the query. */
import { TMS_IDS } from '../../geo/tms.ts';
import { P } from '../validation/params.ts';

export const tmsPathParam = {
  tileMatrixSetId: P.literal(TMS_IDS).path().describe('Identifier selecting one of the TileMatrixSetId supported.'),
};

/** Routes without the TMS in the path take it from the query, WebMercatorQuad by default. */
export const defaultTmsQueryParam = {
  tileMatrixSetId: P.literal(TMS_IDS).default('WebMercatorQuad').describe('Tile matrix set (default WebMercatorQuad).'),
};
