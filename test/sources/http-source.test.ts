import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isRastileError, type RastileErrorKind } from '../../src/errors.ts';
import { createSourceOpener } from '../../src/sources/open-source.ts';
import { sourceOptionsFromEnv, type SourceOptions } from '../../src/sources/options.ts';
import { startRangeServer, type RangeServer, type RangeServerOptions } from '../helpers/http-range-server.ts';
import { makeTempTree, patternBytes, type TempTree } from './fixture-files.ts';

const big = patternBytes(300_000, 1);
const small = patternBytes(5_000, 2);
let tree: TempTree;

before(async () => {
  tree = await makeTempTree({ 'big.tif': big, 'small.tif': small, 'dir/c d.tif': small });
});
after(() => tree.cleanup());

function options(extra: Partial<SourceOptions> = {}): SourceOptions {
  return { ...sourceOptionsFromEnv({}), allowPrivateHosts: true, retryBaseDelayMs: 1, requestTimeoutMs: 2000, ...extra };
}

async function withServer(o: Omit<RangeServerOptions, 'root'>, fn: (s: RangeServer) => Promise<void>): Promise<void> {
  const server = await startRangeServer({ root: tree.dir, ...o });
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

async function failure(p: Promise<unknown>): Promise<{ kind: RastileErrorKind; message: string }> {
  try {
    await p;
  } catch (err) {
    if (isRastileError(err)) return { kind: err.kind, message: err.message };
    throw err;
  }
  assert.fail('expected a failure');
}

describe('http range reads', () => {
  it('reads exact bytes with Range requests and learns the size', async () => {
    await withServer({}, async (server) => {
      const opener = createSourceOpener(options());
      const src = await opener.open(`${server.url}/big.tif`);
      assert.equal(src.size, big.length);
      assert.deepEqual(
        server.requests.map((r) => r.range),
        ['bytes=0-65535'],
      ); // the header chunk on open
      assert.deepEqual(await src.fetch(100_000, 12_345), big.subarray(100_000, 112_345));
      assert.deepEqual(await src.fetch(299_000, 5_000), big.subarray(299_000)); // clamped at the end
      assert.equal((await src.fetch(400_000, 10)).length, 0); // beyond the end: no request
      assert.deepEqual(
        server.requests.map((r) => r.range),
        ['bytes=0-65535', 'bytes=100000-112344', 'bytes=299000-299999'],
      );
      assert.equal(server.requests[0]!.headers['accept-encoding'], 'identity');
      assert.equal(src.stats?.bytesFetched, 65536 + 12345 + 1000);
      const spaced = await opener.open(`${server.url}/dir/c%20d.tif`);
      assert.deepEqual(await spaced.fetch(10, 20), small.subarray(10, 30));
    });
  });

  it('reads inside the header chunk come from the cache', async () => {
    await withServer({}, async (server) => {
      const src = await createSourceOpener(options()).open(`${server.url}/big.tif`);
      assert.deepEqual(await src.fetch(0, 16_384), big.subarray(0, 16_384));
      assert.deepEqual(await src.fetch(60_000, 5_536), big.subarray(60_000, 65_536));
      assert.equal(server.requests.length, 1);
      assert.equal(src.stats?.cacheHits, 2);
    });
  });

  it('a small object: short header read, later reads past the end are empty', async () => {
    await withServer({}, async (server) => {
      const src = await createSourceOpener(options()).open(`${server.url}/small.tif`);
      assert.equal(src.size, small.length);
      assert.deepEqual(await src.fetch(4_000, 10_000), small.subarray(4_000));
      assert.equal((await src.fetch(5_000, 1)).length, 0);
      assert.equal(server.requests.length, 1);
    });
  });

  it('treats 416 as end of file', async () => {
    await withServer({}, async (server) => {
      const src = await createSourceOpener(options({ headerBytes: 0 })).open(`${server.url}/small.tif`);
      assert.equal(src.size, undefined);
      assert.equal((await src.fetch(10_000, 100)).length, 0);
      assert.equal(server.requests[0]!.range, 'bytes=10000-10099');
      assert.equal(src.size, small.length); // learnt from `Content-Range: bytes */5000`
    });
  });

  it('works with a server that ignores Range (whole body kept and reused)', async () => {
    await withServer({ ignoreRange: true }, async (server) => {
      const src = await createSourceOpener(options()).open(`${server.url}/big.tif`);
      assert.equal(src.size, big.length);
      assert.deepEqual(await src.fetch(200_000, 50_000), big.subarray(200_000, 250_000));
      assert.deepEqual(await src.fetch(5, 5), big.subarray(5, 10));
      assert.equal(server.requests.length, 1);
    });
  });

  it('refuses a whole body over the cap with a clear error', async () => {
    await withServer({ ignoreRange: true }, async (server) => {
      const f = await failure(createSourceOpener(options({ maxWholeBodyBytes: 100_000 })).open(`${server.url}/big.tif`));
      assert.equal(f.kind, 'UpstreamError');
      assert.match(f.message, /does not support HTTP Range requests.*100000-byte limit/);
    });
  });
});

describe('http errors, retries and deadlines', () => {
  it('maps 404/410 to not found and 401/403 to forbidden (no retries)', async () => {
    const statuses: Record<string, number> = { '/gone.tif': 410, '/private.tif': 403, '/login.tif': 401 };
    await withServer({ status: (p) => statuses[p] }, async (server) => {
      const opener = createSourceOpener(options());
      assert.equal((await failure(opener.open(`${server.url}/missing.tif`))).kind, 'SourceNotFound');
      assert.equal((await failure(opener.open(`${server.url}/gone.tif`))).kind, 'SourceNotFound');
      assert.equal((await failure(opener.open(`${server.url}/private.tif`))).kind, 'SourceForbidden');
      assert.equal((await failure(opener.open(`${server.url}/login.tif`))).kind, 'SourceForbidden');
      assert.equal(await opener.openIfExists(`${server.url}/missing.tif.ovr`), null);
      assert.equal(server.requests.length, 5);
    });
  });

  it('retries 503 and then succeeds', async () => {
    await withServer({ failFirst: 2 }, async (server) => {
      const src = await createSourceOpener(options()).open(`${server.url}/big.tif`);
      assert.deepEqual(await src.fetch(70_000, 10), big.subarray(70_000, 70_010));
      assert.equal(server.requests.length, 4);
      assert.equal(src.stats?.retries, 2);
    });
  });

  it('gives up after the configured retries with a message naming host and status', async () => {
    await withServer({ status: () => 503 }, async (server) => {
      const f = await failure(createSourceOpener(options({ retries: 2 })).open(`${server.url}/big.tif`));
      assert.equal(f.kind, 'UpstreamError');
      assert.ok(f.message.includes(`127.0.0.1:${server.port}`), f.message);
      assert.match(f.message, /HTTP 503/);
      assert.equal(server.requests.length, 3);
    });
  });

  it('retries connection resets', async () => {
    await withServer({ resetFirst: 2 }, async (server) => {
      const src = await createSourceOpener(options()).open(`${server.url}/small.tif`);
      assert.equal(src.size, small.length);
      assert.equal(server.requests.length, 3);
    });
    await withServer({ resetFirst: 100 }, async (server) => {
      const f = await failure(createSourceOpener(options({ retries: 1 })).open(`${server.url}/small.tif`));
      assert.equal(f.kind, 'UpstreamError');
      assert.match(f.message, /Connection to 127\.0\.0\.1:\d+ failed/);
      assert.equal(server.requests.length, 2);
    });
  });

  it('enforces the per-request deadline and keeps working afterwards', async () => {
    await withServer({ delayMs: 400 }, async (server) => {
      const opener = createSourceOpener(options({ requestTimeoutMs: 50 }));
      const f = await failure(opener.open(`${server.url}/small.tif`));
      assert.equal(f.kind, 'UpstreamTimeout');
      assert.match(f.message, /did not answer within 50 ms/);
      assert.equal(server.requests.length, 1); // timeouts are not retried
      // the same opener still works once the server is fast enough
      const patient = createSourceOpener(options({ requestTimeoutMs: 5000 }));
      assert.equal((await patient.open(`${server.url}/small.tif`)).size, small.length);
    });
  });

  it("honours the caller's AbortSignal", async () => {
    await withServer({ delayMs: 300 }, async (server) => {
      const opener = createSourceOpener(options({ headerBytes: 0 }));
      const src = await opener.open(`${server.url}/big.tif`);
      const controller = new AbortController();
      const pending = src.fetch(0, 100, controller.signal);
      setTimeout(() => controller.abort(), 20);
      await assert.rejects(pending, { name: 'AbortError' });
      await assert.rejects(src.fetch(0, 100, AbortSignal.abort()), { name: 'AbortError' });
      // A reader that times out through AbortSignal.timeout gets UpstreamTimeout.
      const f = await failure(src.fetch(1000, 100, AbortSignal.timeout(20)));
      assert.equal(f.kind, 'UpstreamTimeout');
    });
  });
});

describe('redirects and network policy', () => {
  it('follows redirects and applies the policy to every hop', async () => {
    await withServer({}, async (target) => {
      const hops: Record<string, string> = {
        '/r1.tif': '/r2.tif',
        '/r2.tif': `${target.url}/big.tif`,
        '/to-metadata.tif': 'http://169.254.169.254/latest/meta-data/iam',
        '/to-file.tif': 'file:///etc/passwd',
        '/loop.tif': '/loop.tif',
      };
      await withServer({ redirect: (p) => hops[p] }, async (server) => {
        const opener = createSourceOpener(options());
        const src = await opener.open(`${server.url}/r1.tif`);
        assert.deepEqual(await src.fetch(123_456, 1000), big.subarray(123_456, 124_456));
        assert.equal((await failure(opener.open(`${server.url}/to-metadata.tif`))).kind, 'SourceForbidden');
        assert.equal((await failure(opener.open(`${server.url}/to-file.tif`))).kind, 'SourceForbidden');
        const loop = await failure(opener.open(`${server.url}/loop.tif`));
        assert.equal(loop.kind, 'UpstreamError');
        assert.match(loop.message, /Too many redirects/);
        assert.equal(server.requestsFor('/loop.tif').length, 6); // 1 + 5 redirects
      });
    });
  });

  it('refuses 127.0.0.1 when private hosts are not allowed, before any request', async () => {
    await withServer({}, async (server) => {
      const opener = createSourceOpener(options({ allowPrivateHosts: false }));
      const f = await failure(opener.open(`${server.url}/big.tif`));
      assert.equal(f.kind, 'SourceForbidden');
      assert.equal(server.requests.length, 0);
    });
  });

  it('refuses a redirect from an allowed host to a private address', async () => {
    let port = 0;
    await withServer({ redirect: (p) => (p === '/jump.tif' ? `http://127.0.0.1:${port}/big.tif` : undefined) }, async (server) => {
      port = server.port;
      // `localhost` is exempted by allowedHosts; the hop to 127.0.0.1 is not.
      const opener = createSourceOpener(options({ allowPrivateHosts: false, allowedHosts: ['localhost'], resolveHost: async () => ['127.0.0.1'] }));
      const ok = await opener.open(`http://localhost:${server.port}/big.tif`);
      assert.equal(ok.size, big.length);
      const f = await failure(opener.open(`http://localhost:${server.port}/jump.tif`));
      assert.equal(f.kind, 'SourceForbidden');
      assert.equal(server.requestsFor('/jump.tif').length, 1);
      assert.equal(server.requests.filter((r) => r.headers.host === `127.0.0.1:${port}`).length, 0); // the hop was never made
    });
  });

  it('sends auth hook headers only to the URLs it names', async () => {
    await withServer({ requireHeaders: { authorization: 'Bearer T0KEN' } }, async (data) => {
      await withServer({ redirect: () => `${data.url}/big.tif` }, async (front) => {
        const seen: string[] = [];
        const opener = createSourceOpener(
          options({
            authHeaders: async (url) => {
              seen.push(url.host);
              return url.port === String(data.port) ? { Authorization: 'Bearer T0KEN' } : undefined;
            },
          }),
        );
        const src = await opener.open(`${front.url}/start.tif`);
        assert.deepEqual(await src.fetch(0, 10), big.subarray(0, 10));
        assert.equal(front.requests[0]!.headers.authorization, undefined);
        assert.equal(data.requests[0]!.headers.authorization, 'Bearer T0KEN');
        assert.deepEqual(seen, [`127.0.0.1:${front.port}`, `127.0.0.1:${data.port}`]);
        const f = await failure(createSourceOpener(options()).open(`${data.url}/big.tif`));
        assert.equal(f.kind, 'SourceForbidden');
        assert.ok(!f.message.includes('T0KEN'));
      });
    });
  });
});
