/**
 * A loopback HTTP server of one in-memory file for the start-up warm-ups (warmup.ts): GET with a
 * `Range: bytes=a-b` header answers 206 with that range, without one 200 with the whole file; a
 * strong ETag, as object stores send. Enough for the server's own HTTP source (range reads,
 * streamed bodies) to read the file the way it reads a remote granule.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WarmupRangeServer {
  /** The file's URL. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startWarmupRangeServer(bytes: Uint8Array, name: string): Promise<WarmupRangeServer> {
  const etag = `"warmup-${bytes.length}"`;
  const server: Server = createServer((req, res) => {
    if (req.url !== `/${name}`) {
      res.writeHead(404).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    const end = m && m[2] !== '' ? Math.min(Number(m[2]), bytes.length - 1) : bytes.length - 1;
    if (start > end) {
      res.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
      return;
    }
    const headers = { etag, 'accept-ranges': 'bytes', 'content-length': String(end - start + 1) };
    if (m) res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${bytes.length}` });
    else res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : bytes.subarray(start, end + 1));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${name}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
