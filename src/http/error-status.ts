/**
 * The one table mapping core error kinds to HTTP status codes, and the JSON body of an error.
 *
 * Deviations from TiTiler (which answers 500 for several user mistakes) are deliberate and
 * listed in the OpenAPI description: a missing dataset is 404 (TiTiler: 500), a dataset outside
 * the allowed roots or on a private network is 403, an unreadable/corrupt raster (including a
 * degenerate geotransform) is 400, a band index beyond the band count is 400, a point outside
 * the dataset is 404, remote failures are 502/504, an s3:// object refused to a server without S3
 * credentials is 401 on every route (TiTiler: 401 for a MosaicJSON, 500 for /cog and /stac). `Internal` (a broken invariant of ours) is 500.
 */
import type { ErrorContext, RastileError, RastileErrorKind } from '../errors.ts';

export const STATUS_BY_KIND: Record<RastileErrorKind, number> = {
  BadRequest: 400,
  NotImplemented: 501,
  SourceNotFound: 404,
  SourceForbidden: 403,
  SourceUnauthorized: 401, // TiTiler's pin: s3:// without credentials is 401 (cogeo-mosaic's MosaicAuthError), on every route
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
  MosaicUnavailable: 424, // TiTiler's pin: a missing local mosaic.json is 424 (cogeo-mosaic's MosaicError), not 404
  SourceChanged: 503,
  Internal: 500,
};

/** `{"detail": message}` plus the error's context fields a client may see. */
export type ErrorBody = { detail: string } & ErrorContext;

/** Context fields that name things in the request or in public metadata: always shown. */
const PLAIN_FIELDS = ['ifd', 'band', 'variable', 'parameter', 'asset', 'granule', 'crs'] as const;

/**
 * The JSON body of a failed request: `detail` (TiTiler's field) and, next to it, the safe fields
 * of the error's context. `url` is shown only when it cannot reveal the server's file system: the
 * exact location the client sent as `?url=`, or a remote (http/https/s3) URL without credentials,
 * query or fragment (presigned URLs carry secrets there).
 */
export function errorBody(error: RastileError, query: unknown): ErrorBody {
  const body: ErrorBody = { detail: error.message };
  const ctx = error.context;
  if (!ctx) return body;
  const url = ctx.url === undefined ? undefined : shownUrl(ctx.url, clientUrl(query));
  if (url !== undefined) body.url = url;
  const plain: ErrorContext = {};
  for (const k of PLAIN_FIELDS) if (ctx[k] !== undefined) Object.assign(plain, { [k]: ctx[k] });
  return { ...body, ...plain };
}

function clientUrl(query: unknown): string | undefined {
  const url = typeof query === 'object' && query !== null ? (query as { url?: unknown }).url : undefined;
  return typeof url === 'string' ? url : undefined;
}

function shownUrl(url: string, sent: string | undefined): string | undefined {
  if (url === sent) return url;
  if (!/^(https?|s3):\/\//i.test(url)) return undefined;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return undefined;
  }
}
