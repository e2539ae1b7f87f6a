/**
 * A real node:http server on 127.0.0.1 that serves the files of a directory with HTTP Range
 * semantics, for tests of anything that reads remote bytes.
 *
 * ```ts
 * import { startRangeServer } from '../helpers/http-range-server.ts';
 * const server = await startRangeServer({ root: '/path/to/fixtures' });
 * // GET `${server.url}/rgb.tif` with `Range: bytes=0-99` → 206, Content-Range: bytes 0-99/<size>
 * server.requests;  // [{ method, path, range, headers }] in arrival order (every request, also failed ones)
 * await server.close();
 * ```
 *
 * Semantics: `Range: bytes=a-b`, `bytes=a-` and `bytes=-n` → 206 with Content-Range and
 * Content-Length; a start at or past the end → 416 with `Content-Range: bytes *\/<size>`; no Range
 * (or a multi-range) → 200 with the whole file; missing file → 404; HEAD supported. Paths are
 * URL-decoded and confined to `root`. Query strings are ignored (but recorded in `requests[].url`).
 *
 * Fault injection (counters are global over all requests, in arrival order):
 * - `ignoreRange`: always answer 200 with the whole file (a server without Range support).
 * - `failFirst: n`: the first n requests get 503.
 * - `resetFirst: n`: the first n requests (after the failFirst ones) get their socket destroyed.
 * - `delayMs`: wait this long before answering every request (timeouts).
 * - `status(path)`: return a status to answer with instead of serving (e.g. 403, 410, 500).
 * - `redirect(path)`: return a Location to answer 302 with (absolute or relative).
 * - `requireHeaders`: answer 401 unless every given header has exactly this value.
 * - `requireQuery`: answer 403 unless every given query parameter has exactly this value (a
 *   presigned URL or `?token=`).
 *
 * Versions (a file changed on disk is a changed object): `validators` makes every 200/206 carry
 * the file's `etag` (strong: `"<inode>-<mtime ns>-<size>"`, as nginx derives it from the stat),
 * `weak-etag` (the same as `W/"…"`), `last-modified` (its mtime as an HTTP date) or nothing
 * (`none`, the default). With a strong ETag, `If-Match` is honoured (412 on a mismatch) unless
 * `ignoreIfMatch`. Each answer's headers and body come from one open file handle, so an answer
 * is always of one version even while the file is replaced. The headers go out first and the body
 * is streamed from the file as it is read (an object store's answer: nothing waits for the whole range).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AnswerDelay, listenOnLoopback } from './local-server.ts';

export interface RangeServerOptions {
  root: string;
  ignoreRange?: boolean;
  failFirst?: number;
  resetFirst?: number;
  delayMs?: number;
  status?: (path: string) => number | undefined;
  redirect?: (path: string) => string | undefined;
  requireHeaders?: Record<string, string>;
  requireQuery?: Record<string, string>;
  validators?: 'etag' | 'weak-etag' | 'last-modified' | 'none';
  ignoreIfMatch?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Decoded path, e.g. `/dir/file.tif`. */
  path: string;
  /** Raw request target including the query string. */
  url: string;
  /** The Range header, or undefined. */
  range: string | undefined;
  headers: IncomingHttpHeaders;
}

export interface RangeServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests whose path equals `p` (convenience for assertions). */
  requestsFor(p: string): RecordedRequest[];
  close(): Promise<void>;
}

type ParsedRange = { start: number; end: number } | 'unsatisfiable' | undefined;

/** Parses one `bytes=` range against `size`; undefined means "serve the whole file". */
function parseRange(header: string | undefined, size: number): ParsedRange {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined; // multi-range or malformed: ignore
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}

export async function startRangeServer(options: RangeServerOptions): Promise<RangeServer> {
  const root = path.resolve(options.root);
  const requests: RecordedRequest[] = [];
  const delay = new AnswerDelay(options.delayMs);
  let seen = 0;

  async function answer(req: IncomingMessage, res: ServerResponse, index: number): Promise<void> {
    const rawPath = (req.url ?? '/').split('?')[0]!;
    let p: string;
    try {
      p = decodeURIComponent(rawPath);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const failFirst = options.failFirst ?? 0;
    if (index < failFirst) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('try again');
      return;
    }
    if (index < failFirst + (options.resetFirst ?? 0)) {
      req.socket.destroy();
      return;
    }
    const forced = options.status?.(p);
    if (forced !== undefined) {
      res.writeHead(forced, { 'content-type': 'text/plain' }).end(`status ${forced}`);
      return;
    }
    const location = options.redirect?.(p);
    if (location !== undefined) {
      res.writeHead(302, { location }).end();
      return;
    }
    for (const [name, value] of Object.entries(options.requireHeaders ?? {})) {
      if (req.headers[name.toLowerCase()] !== value) {
        res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        return;
      }
    }
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    for (const [name, value] of Object.entries(options.requireQuery ?? {})) {
      if (query.get(name) !== value) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('signature missing');
        return;
      }
    }
    const file = path.join(root, p);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    let size: number;
    let fh: FileHandle;
    const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream' };
    try {
      fh = await open(file, 'r');
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      const info = await fh.stat({ bigint: true });
      if (!info.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      size = Number(info.size);
      const etag = `"${info.ino.toString(16)}-${info.mtimeNs.toString(16)}-${info.size.toString(16)}"`;
      if (options.validators === 'etag') headers['etag'] = etag;
      if (options.validators === 'weak-etag') headers['etag'] = `W/${etag}`;
      if (options.validators === 'last-modified') headers['last-modified'] = new Date(Number(info.mtimeMs)).toUTCString();
      const ifMatch = req.headers['if-match'];
      if (ifMatch !== undefined && options.ignoreIfMatch !== true && ifMatch !== '*' && ifMatch !== headers['etag']) {
        res.writeHead(412, { 'content-type': 'text/plain' }).end('precondition failed');
        return;
      }
      const range = options.ignoreRange === true ? undefined : parseRange(req.headers.range, size);
      if (range === 'unsatisfiable') {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      if (options.ignoreRange !== true) headers['accept-ranges'] = 'bytes';
      const [start, end] = range === undefined ? [0, size - 1] : [range.start, range.end];
      const length = Math.max(0, end - start + 1);
      if (range === undefined) res.writeHead(200, { ...headers, 'content-length': size });
      else res.writeHead(206, { ...headers, 'content-length': length, 'content-range': `bytes ${start}-${end}/${size}` });
      if (req.method === 'HEAD' || length === 0) {
        res.end();
        return;
      }
      // Headers first, then the bytes as they are read (as an object store answers): the client
      // starts on the first piece while the rest is read, not after the whole range was.
      await pipeline(fh.createReadStream({ start, end, autoClose: false }), res);
    } finally {
      await fh.close();
    }
  }

  const server = createServer((req, res) => {
    const index = seen++;
    const p = (() => {
      try {
        return decodeURIComponent((req.url ?? '/').split('?')[0]!);
      } catch {
        return req.url ?? '/';
      }
    })();
    requests.push({ method: req.method ?? 'GET', path: p, url: req.url ?? '/', range: req.headers.range, headers: req.headers });
    delay.run(() => {
      answer(req, res, index).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
  });
  const { url, port, close } = await listenOnLoopback(server, () => delay.cancel());

  return {
    url,
    port,
    requests,
    requestsFor: (p) => requests.filter((r) => r.path === p),
    close,
  };
}
