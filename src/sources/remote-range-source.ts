import { Errors, type ErrorContext, type RastileError } from '../errors.ts';
import { discard, networkError, safeHost } from './http-request.ts';
import { RemoteVersion } from './remote-version.ts';
import { markRetryable } from './retry.ts';
import type { ByteSink, Source, SourceStats } from './source.ts';
import { sourceChanged } from './version.ts';
import { countUpstreamBytes } from './upstream-metrics.ts';
import { concat, type UpstreamResponse } from './upstream-response.ts';
import { collectYoungWhileWaiting } from '../util/release-memory.ts';

/**
 * Streamed reads from this size on collect the young generation while their request is out: the
 * dead Buffers of earlier bodies go back to malloc, so this body's per-piece copies reuse their
 * pages (util/release-memory.ts).
 */
const COLLECT_WHILE_WAITING_BYTES = 1024 * 1024;

/** How one kind of remote store sends a (range) GET: plain HTTP or signed S3. */
export interface RangeTransport {
  /** The Source's url (cache key). */
  readonly url: string;
  /** Safe name for messages: no query string, no credentials. */
  readonly display: string;
  /**
   * Sends a GET (with `Range: <range>` when given, plus the `conditions` headers such as
   * If-Match) and returns the final response and its URL.
   */
  send(
    range: string | undefined,
    signal: AbortSignal | undefined,
    conditions?: Readonly<Record<string, string>>,
  ): Promise<{ response: UpstreamResponse; url: URL }>;
  /** Reads an error response's body for a short code (S3's `<Code>`). Must consume or cancel the body. */
  errorCode?(response: UpstreamResponse): Promise<string | undefined>;
  /**
   * The error for a 401/403 answer when the transport knows why (an unsigned S3 request: no
   * credentials configured); undefined: SourceForbidden. `detail`: `HTTP 403, AccessDenied`.
   */
  refused?(detail: string, context: ErrorContext): RastileError | undefined;
}

export interface RemoteRangeOptions {
  maxWholeBodyBytes: number;
  /** Called with the whole object when a server ignored Range, so the byte cache can keep it (under `version`). */
  onWholeBody?: (bytes: Uint8Array, version: string | undefined) => void;
}

const EMPTY = new Uint8Array(0);

interface ContentRange {
  start: number;
  end: number; // inclusive
  total: number | undefined;
}

/** Parses `bytes a-b/total`, `bytes a-b/*` or `bytes *\/total`. */
export function parseContentRange(header: string | null): ContentRange | { unsatisfied: true; total: number | undefined } | undefined {
  if (header === null) return undefined;
  const m = /^\s*bytes\s+(?:(\d+)-(\d+)|\*)\s*\/\s*(\d+|\*)\s*$/i.exec(header);
  if (!m) return undefined;
  const total = m[3] === '*' ? undefined : Number(m[3]);
  if (m[1] === undefined) return { unsatisfied: true, total };
  return { start: Number(m[1]), end: Number(m[2]), total };
}

/**
 * A Source over HTTP Range requests: learns the size from Content-Range, treats 416 as end of
 * file, and copes with servers that ignore Range (keeps the whole body, up to a cap). Status
 * codes map to typed errors; transient ones are marked retryable for RetryingSource above it.
 * Bound to the object version of its first response (remote-version.ts): a response of another
 * version throws SourceChanged, and so does every read after it.
 */
export class RemoteRangeSource implements Source {
  size: number | undefined;
  readonly versionState = new RemoteVersion();

  constructor(
    private readonly transport: RangeTransport,
    private readonly options: RemoteRangeOptions,
    readonly stats: SourceStats,
  ) {}

  get url(): string {
    return this.transport.url;
  }

  get version(): string | undefined {
    return this.versionState.version;
  }

  get changed(): boolean {
    return this.versionState.changed;
  }

  async fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    const sent = await this.send(offset, length, signal);
    if (sent === null) return EMPTY;
    return this.complete(sent.response, sent.url, offset, length, sent.last, signal);
  }

  /**
   * Streams the body of a plain 206 answer for exactly the range asked into `sink` as it arrives
   * (no array of the whole range is made); any other answer (a wider range, 200, 416) is read as
   * `fetch` reads it and delivered as one piece.
   */
  async stream(offset: number, length: number, sink: ByteSink, signal?: AbortSignal): Promise<number> {
    if (length >= COLLECT_WHILE_WAITING_BYTES) collectYoungWhileWaiting();
    const sent = await this.send(offset, length, signal);
    if (sent === null) {
      sink.restart();
      return 0;
    }
    const { response, url, last } = sent;
    const cr = response.status === 206 ? parseContentRange(response.headers.get('content-range')) : undefined;
    if (cr !== undefined && !('unsatisfied' in cr) && cr.start === offset && cr.end <= last) {
      if (cr.total !== undefined) this.size = cr.total;
      const expected = cr.end - cr.start + 1;
      sink.restart();
      const n = await this.pump(response, url, signal, sink, expected);
      if (n !== expected) throw markRetryable(Errors.upstream(`Truncated response from ${safeHost(url)} for ${this.transport.display}`));
      return n;
    }
    const bytes = await this.complete(response, url, offset, length, last, signal);
    sink.restart();
    sink.write(bytes);
    return bytes.length;
  }

  /** Sends the range request and checks its version; null when nothing is to be read (empty range, past the end). */
  private async send(offset: number, length: number, signal: AbortSignal | undefined): Promise<{ response: UpstreamResponse; url: URL; last: number } | null> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      // Format readers validate ranges from file structures (cog-source.ts): this is a bug of ours.
      throw Errors.internal(`Invalid byte range offset=${offset} length=${length}`);
    }
    const state = this.versionState;
    if (state.changed) throw sourceChanged(this.transport.display, 'another version was seen');
    if (length === 0 || (this.size !== undefined && offset >= this.size)) return null;
    let last = offset + length - 1;
    if (this.size !== undefined) last = Math.min(last, this.size - 1);

    const { response, url } = await this.transport.send(`bytes=${offset}-${last}`, signal, state.conditions());
    const status = response.status;
    if (status === 412) {
      await discard(response);
      throw sourceChanged(this.transport.display, state.preconditionFailed());
    }
    if (status === 206 || status === 200 || status === 416) {
      const cr = parseContentRange(response.headers.get('content-range'));
      const declared = status === 200 ? Number(response.headers.get('content-length') ?? NaN) : NaN;
      const total = cr !== undefined ? cr.total : Number.isFinite(declared) ? declared : undefined;
      const changed = state.observe(response.headers, total);
      if (changed !== null) {
        await discard(response);
        throw sourceChanged(this.transport.display, changed);
      }
    }
    return { response, url, last };
  }

  /** The bytes [offset, offset + length) from a response to `send`, or the error its status means. */
  private async complete(
    response: UpstreamResponse,
    url: URL,
    offset: number,
    length: number,
    last: number,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array> {
    const state = this.versionState;
    const status = response.status;
    if (status === 206) {
      const cr = parseContentRange(response.headers.get('content-range'));
      const body = await this.readBody(response, url, signal);
      if (cr === undefined || 'unsatisfied' in cr) {
        throw Errors.upstream(`${safeHost(url)} answered 206 without a valid Content-Range for ${this.transport.display}`);
      }
      if (cr.total !== undefined) this.size = cr.total;
      if (body.length !== cr.end - cr.start + 1) {
        throw markRetryable(Errors.upstream(`Truncated response from ${safeHost(url)} for ${this.transport.display}`));
      }
      if (cr.start === offset && body.length <= length) return body;
      // A server may answer with a wider range than asked (aligned blocks): cut ours out of it.
      if (cr.start > offset || cr.end < Math.min(last, cr.start + body.length - 1)) {
        throw Errors.upstream(`${safeHost(url)} answered a different byte range than requested for ${this.transport.display}`);
      }
      return body.slice(offset - cr.start, offset - cr.start + Math.min(length, cr.end - offset + 1));
    }

    if (status === 200) {
      const body = await this.readWholeBody(response, url, signal);
      if (this.size !== undefined && body.length !== this.size) {
        state.changed = true;
        throw sourceChanged(this.transport.display, `size ${this.size} → ${body.length} bytes`);
      }
      this.size = body.length;
      this.options.onWholeBody?.(body, state.version);
      if (offset >= body.length) return EMPTY;
      return body.slice(offset, Math.min(body.length, offset + length));
    }

    if (status === 416) {
      const cr = parseContentRange(response.headers.get('content-range'));
      await discard(response);
      if (cr !== undefined && cr.total !== undefined) this.size = cr.total;
      return EMPTY;
    }

    throw await this.statusError(response, url);
  }

  private async statusError(response: UpstreamResponse, url: URL): Promise<RastileError> {
    const status = response.status;
    let code: string | undefined;
    if (this.transport.errorCode !== undefined) {
      try {
        code = await this.transport.errorCode(response);
      } catch {
        code = undefined;
      }
    } else {
      await discard(response);
    }
    const what = this.transport.display;
    const detail = code !== undefined ? `HTTP ${status}, ${code}` : `HTTP ${status}`;
    const context = { url: this.transport.url };
    if (status === 404 || status === 410) return Errors.sourceNotFound(`Dataset not found: ${what} (${detail})`, { context });
    if (status === 401 || status === 403) {
      return this.transport.refused?.(detail, context) ?? Errors.sourceForbidden(`Access to ${what} is forbidden (${detail})`, { context });
    }
    const text = response.statusText !== '' ? ` ${response.statusText}` : '';
    const err = Errors.upstream(`Upstream server ${safeHost(url)} answered HTTP ${status}${text}${code !== undefined ? ` (${code})` : ''} for ${what}`, {
      context,
    });
    return status === 429 || status >= 500 ? markRetryable(err) : err;
  }

  private async readBody(response: UpstreamResponse, url: URL, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      await response.read((piece) => {
        chunks.push(piece);
        total += piece.length;
      });
    } catch (err) {
      throw networkError(err, url, signal);
    } finally {
      this.stats.bytesFetched += total;
      countUpstreamBytes(url, total);
    }
    return chunks.length === 1 && chunks[0]!.byteOffset === 0 && chunks[0]!.byteLength === chunks[0]!.buffer.byteLength ? chunks[0]! : concat(chunks, total);
  }

  /**
   * Hands the body's pieces to `sink` as they arrive; stops (dropping the body) past `expected`
   * bytes. Returns the bytes received. A sink's exception ends the read and is re-thrown as is.
   */
  private async pump(response: UpstreamResponse, url: URL, signal: AbortSignal | undefined, sink: ByteSink, expected: number): Promise<number> {
    let total = 0;
    let sinkError = false;
    try {
      await response.read((piece) => {
        total += piece.length;
        if (total > expected) return false;
        sinkError = true;
        sink.write(piece);
        sinkError = false;
        return true;
      });
      return total;
    } catch (err) {
      throw sinkError ? err : networkError(err, url, signal);
    } finally {
      this.stats.bytesFetched += total;
      countUpstreamBytes(url, total);
    }
  }

  /** Streams a 200 body, refusing objects over maxWholeBodyBytes before or while reading. */
  private async readWholeBody(response: UpstreamResponse, url: URL, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const cap = this.options.maxWholeBodyBytes;
    const tooBig = () =>
      Errors.upstream(
        `${safeHost(url)} does not support HTTP Range requests and ${this.transport.display} is larger than the ${cap}-byte limit for whole downloads`,
      );
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > cap) {
      await discard(response);
      throw tooBig();
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    let over = false;
    try {
      await response.read((piece) => {
        total += piece.length;
        this.stats.bytesFetched += piece.length;
        countUpstreamBytes(url, piece.length);
        if (total > cap) {
          over = true;
          return false;
        }
        chunks.push(piece);
        return true;
      });
    } catch (err) {
      throw networkError(err, url, signal);
    }
    if (over) throw tooBig();
    return concat(chunks, total);
  }
}
