/**
 * Typed errors thrown by the core. They carry no HTTP knowledge: the single table in
 * `src/http/error-status.ts` maps each `kind` to a status code.
 *
 * Every error has a literal `kind` so callers can switch on it without `instanceof`
 * chains, a human message that is safe to show to API clients (no secrets, no stack), and
 * optional structured `context` (which dataset, IFD, band, parameter…) that the HTTP edge may
 * show next to the message. Construct them through `Errors.*` only.
 */
export const ERROR_KINDS = [
  'BadRequest', // generic user mistake that is not a schema validation failure
  'NotImplemented', // something this server does not do (on this host)
  'SourceNotFound', // file or object does not exist (ENOENT, HTTP 404, S3 NoSuchKey)
  'SourceForbidden', // outside local roots, private network address, HTTP 401/403
  'SourceUnauthorized', // the store refused a request we could not sign: no credentials configured (S3), 401
  'UpstreamError', // remote server failed (5xx after retries, connection reset)
  'UpstreamTimeout', // remote server did not answer within the deadline
  'InvalidFormat', // bytes are not a readable raster (corrupt, truncated, degenerate georeferencing)
  'UnsupportedFeature', // a valid raster that uses something we do not decode (e.g. a compression)
  'InvalidCrs', // a CRS string or GeoKeys set we cannot interpret, or a transform that fails
  'TileOutsideBounds',
  'PointOutsideBounds',
  'InvalidExpression',
  'MissingBands',
  'InvalidBandIndex',
  'MissingAssets',
  'InvalidAssetName',
  'InvalidColorFormat',
  'InvalidAlgorithmParams',
  'MaxSizeExceeded', // output or decode size over a configured cap
  'NoData', // nothing to return (mosaic with no granule/asset): 204
  'Overloaded', // the server's memory for requests in flight is taken: retry later (503)
  'RequestTimeout', // the request ran past RASTILE_REQUEST_TIMEOUT_MS (503)
  'MosaicUnavailable', // a MosaicJSON document cannot be had (missing): TiTiler/cogeo-mosaic's MosaicError, 424
  'SourceChanged', // the dataset's bytes changed while it was being read (re-read once, then this)
  'Internal', // a broken invariant of our own code: a bug, never the client's fault
] as const;

export type RastileErrorKind = (typeof ERROR_KINDS)[number];

/**
 * Where an error happened, as plain data. Every field is optional; set the ones that help a
 * client fix its request. `url` is a dataset location: the HTTP edge shows it only when the
 * client could have sent it (see `src/http/error-status.ts`).
 */
export interface ErrorContext {
  /** Dataset location (path or URL) the error is about. */
  url?: string;
  /** TIFF image file directory (0 = full resolution). */
  ifd?: number;
  /** 1-based band index. */
  band?: number;
  /** Variable of a multidimensional dataset (NetCDF/HDF5/Zarr). */
  variable?: string;
  /** Query or path parameter whose value is wrong. */
  parameter?: string;
  /** STAC asset name. */
  asset?: string;
  /** Granule UR of a CMR granule. */
  granule?: string;
  /** CRS text the error is about. */
  crs?: string;
}

export interface RastileErrorOptions {
  cause?: unknown;
  context?: ErrorContext;
}

export class RastileError extends Error {
  readonly kind: RastileErrorKind;
  readonly context: ErrorContext | undefined;
  constructor(kind: RastileErrorKind, message: string, options: RastileErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.context = options.context;
    this.name = `RastileError(${kind})`;
  }
}

export const isRastileError = (err: unknown, kind?: RastileErrorKind): err is RastileError =>
  err instanceof RastileError && (kind === undefined || err.kind === kind);

type Make = (msg: string, options?: RastileErrorOptions) => RastileError;
const make =
  (kind: RastileErrorKind): Make =>
  (msg, options) =>
    new RastileError(kind, msg, options);

/** Shorthand constructors, one per kind, so call sites read as sentences. */
export const Errors = {
  badRequest: make('BadRequest'),
  notImplemented: make('NotImplemented'),
  sourceNotFound: make('SourceNotFound'),
  sourceForbidden: make('SourceForbidden'),
  sourceUnauthorized: make('SourceUnauthorized'),
  upstream: make('UpstreamError'),
  upstreamTimeout: make('UpstreamTimeout'),
  invalidFormat: make('InvalidFormat'),
  unsupported: make('UnsupportedFeature'),
  invalidCrs: make('InvalidCrs'),
  tileOutsideBounds: (x: number, y: number, z: number) => new RastileError('TileOutsideBounds', `Tile(x=${x}, y=${y}, z=${z}) is outside bounds`),
  pointOutsideBounds: (msg = 'Point is outside dataset bounds') => new RastileError('PointOutsideBounds', msg),
  invalidExpression: make('InvalidExpression'),
  missingBands: make('MissingBands'),
  invalidBandIndex: make('InvalidBandIndex'),
  missingAssets: make('MissingAssets'),
  invalidAssetName: make('InvalidAssetName'),
  invalidColorFormat: make('InvalidColorFormat'),
  invalidAlgorithmParams: make('InvalidAlgorithmParams'),
  maxSize: make('MaxSizeExceeded'),
  noData: make('NoData'),
  overloaded: make('Overloaded'),
  requestTimeout: make('RequestTimeout'),
  mosaicUnavailable: make('MosaicUnavailable'),
  sourceChanged: make('SourceChanged'),
  /** A broken invariant of our own code (answered 500 and logged): never for a client's mistake. */
  internal: make('Internal'),
  /** The same error with a prefix on its message and more context (the original is the cause). */
  wrap: (err: RastileError, prefix: string, context?: ErrorContext) =>
    new RastileError(err.kind, `${prefix}${err.message}`, { cause: err, context: { ...err.context, ...context } }),
} as const;
