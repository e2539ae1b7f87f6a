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
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
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
    const file = path.join(root, p);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    let size: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      size = info.size;
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const range = options.ignoreRange === true ? undefined : parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream' };
    if (options.ignoreRange !== true) headers['accept-ranges'] = 'bytes';
    if (range === undefined) {
      res.writeHead(200, { ...headers, 'content-length': size });
      if (req.method === 'HEAD' || size === 0) return void res.end();
      createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(206, { ...headers, 'content-length': range.end - range.start + 1, 'content-range': `bytes ${range.start}-${range.end}/${size}` });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file, { start: range.start, end: range.end }).pipe(res);
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
