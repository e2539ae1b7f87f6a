/**
 * The one table mapping core error kinds to HTTP status codes.
 *
 * Deviations from TiTiler (which answers 500 for several user mistakes) are deliberate and
 * listed in the OpenAPI description: a missing dataset is 404 (TiTiler: 500), a dataset outside
 * the allowed roots or on a private network is 403, an unreadable/corrupt raster is 400, a band
 * index beyond the band count is 400, a point outside the dataset is 404, remote failures are
 * 502/504.
 */
import type { RastileErrorKind } from '../errors.ts';

export const STATUS_BY_KIND: Record<RastileErrorKind, number> = {
  BadRequest: 400,
  NotImplemented: 501,
  SourceNotFound: 404,
  SourceForbidden: 403,
  UpstreamError: 502,
  UpstreamTimeout: 504,
  InvalidFormat: 400,
  UnsupportedFeature: 400,
  InvalidCrs: 400,
  TileOutsideBounds: 404,
  PointOutsideBounds: 404,
  InvalidExpression: 400,
  MissingBands: 400,
  InvalidBandIndex: 400,
  MissingAssets: 400,
  InvalidAssetName: 404,
  InvalidColorFormat: 400,
  InvalidAlgorithmParams: 400,
  MaxSizeExceeded: 400,
  NoData: 204,
  Overloaded: 503,
  RequestTimeout: 503,
  SourceChanged: 503,
  Internal: 500,
};
