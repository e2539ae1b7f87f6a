import assert from 'node:assert/strict';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { HttpTransport } from '../../src/sources/http-source.ts';
import type { NetworkPolicy } from '../../src/sources/network-policy.ts';
import { nodeGet } from '../../src/sources/node-http-get.ts';
import { RemoteRangeSource } from '../../src/sources/remote-range-source.ts';
import { isRetryable } from '../../src/sources/retry.ts';
import { createSourceStats, type ByteSink } from '../../src/sources/source.ts';
import { readUpTo } from '../../src/sources/upstream-response.ts';

const SIZE = 200_000;
const data = Uint8Array.from({ length: SIZE }, (_, i) => (i * 7 + 3) & 255);

interface TestServer {
  port: number;
  requests: number;
  connections: number;
  closedSockets: number;
  close(): Promise<void>;
}

/** A loopback server whose handler decides everything (partial bodies, stalls, encodings). */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, keepAliveTimeoutMs?: number): Promise<TestServer> {
  const state = { requests: 0, connections: 0, closedSockets: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    handler(req, res);
  });
  if (keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on('connection', (socket) => {
    state.connections++;
    socket.on('close', () => state.closedSockets++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as TestServer;
}

/** Range answers from `data`: 206 with Content-Range and Content-Length. */
function ranged(req: IncomingMessage, res: ServerResponse): { start: number; end: number } {
  const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '')!;
  const start = Number(m[1]);
  const end = Math.min(Number(m[2]), SIZE - 1);
  res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${SIZE}`, 'content-length': String(end - start + 1), etag: '"v1"' });
  return { start, end };
}

/** A resolver that always answers `address`, as a DNS server rebinding a name would at connect time. */
function fixedLookup(address: string): LookupFunction {
  return ((_host: string, options: LookupOptions, callback: (err: null, a: string | LookupAddress[], family?: number) => void) => {
    const family = address.includes(':') ? 6 : 4;
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

const publicAnswer = async (): Promise<string[]> => ['93.184.216.34'];

function source(port: number, policy: NetworkPolicy, host = '127.0.0.1'): RemoteRangeSource {
  const stats = createSourceStats();
  const transport = new HttpTransport(new URL(`http://${host}:${port}/data.bin`), { policy, maxRedirects: 3, userAgent: 'rastile-test' }, stats);
  return new RemoteRangeSource(transport, { maxWholeBodyBytes: 1 << 20 }, stats);
}

const open: NetworkPolicy = { allowPrivateHosts: true, allowedHosts: [], resolveHost: publicAnswer };

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  assert.fail('expected a rejection');
}

describe('node:http range transport', () => {
  it('refuses a private address at connect time when the name resolved to a public one before (DNS rebinding)', async () => {
    const server = await serve((_req, res) => res.end('x'));
    try {
      const policy: NetworkPolicy = { allowPrivateHosts: false, allowedHosts: [], resolveHost: publicAnswer, connectLookup: fixedLookup('127.0.0.1') };
      const err = await rejection(nodeGet(new URL(`http://rebind.test:${server.port}/data.bin`), {}, policy));
      assert.ok(isRastileError(err, 'SourceForbidden'), String(err));
      assert.equal(server.connections, 0);
      // The same name exempted by allowedHosts connects.
      const allowed: NetworkPolicy = { ...policy, allowedHosts: ['rebind.test'] };
      const answer = await nodeGet(new URL(`http://rebind.test:${server.port}/data.bin`), {}, allowed);
      assert.equal(answer.status, 200);
      assert.equal(Buffer.from(await readUpTo(answer, 100)).toString(), 'x');
      // Metadata endpoints are refused even with private hosts allowed.
      const metadata: NetworkPolicy = { ...open, connectLookup: fixedLookup('169.254.169.254') };
      assert.ok(isRastileError(await rejection(nodeGet(new URL(`http://meta.test:${server.port}/`), {}, metadata)), 'SourceForbidden'));
    } finally {
      await server.close();
    }
  });

  it('reads ranges over one kept-alive connection, with identity encoding asked', async () => {
    const seen: (string | undefined)[] = [];
    const server = await serve((req, res) => {
      seen.push(req.headers['accept-encoding']);
      const { start, end } = ranged(req, res);
      res.end(data.subarray(start, end + 1));
    });
    try {
      const src = source(server.port, open);
      assert.deepEqual(await src.fetch(0, 70_000), data.subarray(0, 70_000));
      const pieces: Uint8Array[] = [];
      const sink: ByteSink = { restart: () => (pieces.length = 0), write: (p) => void pieces.push(p.slice()) };
      assert.equal(await src.stream(70_000, 130_000, sink), 130_000);
      assert.deepEqual(Buffer.concat(pieces), Buffer.from(data.subarray(70_000)));
      assert.equal(src.size, SIZE);
      assert.equal(src.stats.bytesFetched, SIZE);
      assert.deepEqual(seen, ['identity', 'identity']);
      assert.equal(server.connections, 1);
    } finally {
      await server.close();
    }
  });

  it('closes an idle kept-alive connection itself, before a server that keeps it a minute', async () => {
    const server = await serve((req, res) => {
      const { start, end } = ranged(req, res);
      res.end(data.subarray(start, end + 1));
    }, 60_000);
    try {
      const src = source(server.port, open);
      assert.deepEqual(await src.fetch(0, 1000), data.subarray(0, 1000));
      assert.equal(server.closedSockets, 0);
      // The client's idle timeout (IDLE_SOCKET_MS) ends it; the server would wait 60 s.
      for (let i = 0; i < 200 && server.closedSockets === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(server.closedSockets, 1);
      // The next read opens a new connection and works.
      assert.deepEqual(await src.fetch(1000, 1000), data.subarray(1000, 2000));
      assert.equal(server.connections, 2);
    } finally {
      await server.close();
    }
  });

  it('aborting mid-body rejects with the reason and closes the connection', async () => {
    const server = await serve((req, res) => {
      const { start } = ranged(req, res);
      res.write(data.subarray(start, start + 1000)); // then stalls
    });
    try {
      const src = source(server.port, open);
      const controller = new AbortController();
      const reason = new Error('deadline');
      let got = 0;
      const sink: ByteSink = {
        restart: () => {},
        write: (p) => {
          got += p.length;
          controller.abort(reason);
        },
      };
      assert.equal(await rejection(src.stream(0, 100_000, sink, controller.signal)), reason);
      assert.equal(got, 1000);
      for (let i = 0; i < 50 && server.closedSockets === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(server.closedSockets, 1);
      // The same for a plain fetch waiting on the body.
      const c2 = new AbortController();
      const p = src.fetch(0, 100_000, c2.signal);
      setTimeout(() => c2.abort(reason), 30);
      assert.equal(await rejection(p), reason);
    } finally {
      await server.close();
    }
  });

  it('a body cut short is a retryable upstream error (with and without Content-Length)', async () => {
    let withLength = true;
    const server = await serve((req, res) => {
      if (withLength) {
        const { start } = ranged(req, res);
        res.write(data.subarray(start, start + 5000), () => res.destroy());
      } else {
        const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '')!;
        res.writeHead(206, { 'content-range': `bytes ${m[1]}-${m[2]}/${SIZE}`, connection: 'close' });
        res.end(data.subarray(0, 5000));
      }
    });
    try {
      const src = source(server.port, open);
      for (const read of [() => src.fetch(0, 50_000), () => src.stream(0, 50_000, { restart: () => {}, write: () => {} })]) {
        withLength = true;
        const cut = await rejection(read());
        assert.ok(isRastileError(cut, 'UpstreamError') && isRetryable(cut), String(cut));
        withLength = false;
        const short = await rejection(read());
        assert.ok(isRastileError(short, 'UpstreamError') && isRetryable(short), String(short));
        assert.match((short as Error).message, /Truncated/);
      }
    } finally {
      await server.close();
    }
  });

  it('an encoded body (asked for identity) is refused', async () => {
    const server = await serve((req, res) => {
      const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '')!;
      res.writeHead(206, { 'content-range': `bytes ${m[1]}-${m[2]}/${SIZE}`, 'content-encoding': 'gzip' });
      res.end(data.subarray(0, 10));
    });
    try {
      const err = await rejection(source(server.port, open).fetch(0, 10));
      assert.ok(isRastileError(err, 'UpstreamError'), String(err));
      assert.match((err as Error).message, /Content-Encoding "gzip"/);
    } finally {
      await server.close();
    }
  });
});
