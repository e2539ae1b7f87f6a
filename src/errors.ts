/**
 * Typed errors thrown by the core. They carry no HTTP knowledge: the single table in
 * `src/http/error-status.ts` maps each `kind` to a status code.
 *
 * Every error has a literal `kind` so callers can switch on it without `instanceof`
 * chains, and a human message that is safe to show to API clients (no secrets, no stack).
 */
export type RastileErrorKind =
  | 'BadRequest' // generic user mistake that is not a schema validation failure
  | 'NotImplemented'
  | 'SourceNotFound' // file or object does not exist (ENOENT, HTTP 404, S3 NoSuchKey)
  | 'SourceForbidden' // outside local roots, private network address, HTTP 401/403
  | 'UpstreamError' // remote server failed (5xx after retries, connection reset)
  | 'UpstreamTimeout' // remote server did not answer within the deadline
  | 'InvalidFormat' // bytes are not a readable raster (corrupt, truncated, unsupported)
  | 'UnsupportedFeature' // a valid raster that uses something we do not decode (e.g. a compression)
  | 'InvalidCrs' // a CRS string or GeoKeys set we cannot interpret
  | 'TileOutsideBounds'
  | 'PointOutsideBounds'
  | 'InvalidExpression'
  | 'MissingBands'
  | 'InvalidBandIndex'
  | 'MissingAssets'
  | 'InvalidAssetName'
  | 'InvalidColorFormat'
  | 'InvalidAlgorithmParams'
  | 'MaxSizeExceeded' // output or decode size over a configured cap
  | 'NoData' // nothing to return (mosaic with no granule/asset): 204
  | 'Overloaded' // the server's memory for requests in flight is taken: retry later (503)
  | 'RequestTimeout' // the request ran past RASTILE_REQUEST_TIMEOUT_MS (503)
  | 'SourceChanged' // the dataset's bytes changed while it was being read (re-read once, then this)
  | 'Internal';

export class RastileError extends Error {
  readonly kind: RastileErrorKind;
  constructor(kind: RastileErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = `RastileError(${kind})`;
  }
}

export const isRastileError = (err: unknown, kind?: RastileErrorKind): err is RastileError =>
  err instanceof RastileError && (kind === undefined || err.kind === kind);

/** Shorthand constructors, so call sites read as sentences. */
export const Errors = {
  badRequest: (msg: string) => new RastileError('BadRequest', msg),
  notImplemented: (msg: string) => new RastileError('NotImplemented', msg),
  sourceNotFound: (msg: string, cause?: unknown) => new RastileError('SourceNotFound', msg, { cause }),
  sourceForbidden: (msg: string) => new RastileError('SourceForbidden', msg),
  upstream: (msg: string, cause?: unknown) => new RastileError('UpstreamError', msg, { cause }),
  upstreamTimeout: (msg: string) => new RastileError('UpstreamTimeout', msg),
  invalidFormat: (msg: string, cause?: unknown) => new RastileError('InvalidFormat', msg, { cause }),
  unsupported: (msg: string) => new RastileError('UnsupportedFeature', msg),
  invalidCrs: (msg: string) => new RastileError('InvalidCrs', msg),
  tileOutsideBounds: (x: number, y: number, z: number) =>
    new RastileError('TileOutsideBounds', `Tile(x=${x}, y=${y}, z=${z}) is outside bounds`),
  pointOutsideBounds: (msg = 'Point is outside dataset bounds') => new RastileError('PointOutsideBounds', msg),
  invalidExpression: (msg: string) => new RastileError('InvalidExpression', msg),
  invalidBandIndex: (msg: string) => new RastileError('InvalidBandIndex', msg),
  maxSize: (msg: string) => new RastileError('MaxSizeExceeded', msg),
  overloaded: (msg: string) => new RastileError('Overloaded', msg),
  requestTimeout: (msg: string) => new RastileError('RequestTimeout', msg),
  sourceChanged: (msg: string) => new RastileError('SourceChanged', msg),
} as const;
