/**
 * X-Forwarded-Host / X-Forwarded-Proto change the links of TileJSON and WMTS documents only when
 * RASTILE_TRUST_PROXY trusts the peer (Fastify's `trustProxy`): a forged header from any client
 * must not make a cacheable document point at another host.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseTrustProxy } from '../../src/cli/config-from-env.ts';
import type { TrustProxy } from '../../src/config.ts';
import { q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

const DEMO = path.join(REPO, 'demo', 'rastile-demo.tif');
const FORGED = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

async function tileUrl(server: TestServer, headers: Record<string, string>): Promise<string> {
  const r = await server.get(`/cog/WebMercatorQuad/tilejson.json?url=${q(DEMO)}`, { headers });
  assert.equal(r.status, 200);
  const body = (await r.json()) as { tiles: string[] };
  assert.equal(body.tiles.length, 1);
  return body.tiles[0]!;
}

async function wmts(server: TestServer, headers: Record<string, string>): Promise<string> {
  const r = await server.get(`/cog/WMTSCapabilities.xml?url=${q(DEMO)}`, { headers });
  assert.equal(r.status, 200);
  return r.text();
}

function withServer(trustProxy: TrustProxy, body: (s: () => TestServer) => void): void {
  let server: TestServer;
  before(async () => {
    server = await startTestServer((c) => {
      c.trustProxy = trustProxy;
    });
  });
  after(async () => {
    await server.close();
  });
  body(() => server);
}

describe('forwarded headers without RASTILE_TRUST_PROXY (default)', () => {
  withServer(false, (server) => {
    it('a forged X-Forwarded-Host/Proto does not change TileJSON tiles URLs', async () => {
      const s = server();
      const plain = await tileUrl(s, {});
      assert.ok(plain.startsWith(`${s.url}/cog/tiles/WebMercatorQuad/{z}/{x}/{y}`), plain);
      assert.equal(await tileUrl(s, FORGED), plain);
    });
    it('nor WMTS capabilities links', async () => {
      const s = server();
      const xml = await wmts(s, FORGED);
      assert.ok(!xml.includes('evil.example'));
      assert.ok(xml.includes(`${s.url}/cog/`), 'links on the Host header');
    });
  });
});

describe('forwarded headers from a trusted proxy', () => {
  for (const trust of [true, '127.0.0.1', '10.0.0.0/8, 127.0.0.0/8'] as const) {
    describe(`RASTILE_TRUST_PROXY=${String(trust)}`, () => {
      withServer(trust, (server) => {
        it('X-Forwarded-Host/Proto make the TileJSON tiles URLs', async () => {
          const url = await tileUrl(server(), FORGED);
          assert.ok(url.startsWith('https://evil.example/cog/tiles/WebMercatorQuad/{z}/{x}/{y}'), url);
        });
        it('the last entry of a list is the one the nearest proxy wrote (Fastify)', async () => {
          const url = await tileUrl(server(), { 'x-forwarded-host': 'client.example, proxy.example', 'x-forwarded-proto': 'http, https' });
          assert.ok(url.startsWith('https://proxy.example/cog/tiles/'), url);
        });
        it('and the WMTS links', async () => {
          const xml = await wmts(server(), FORGED);
          assert.ok(xml.includes('https://evil.example/cog/'));
        });
      });
    });
  }
});

describe('a peer outside the trusted addresses', () => {
  withServer('10.0.0.0/8', (server) => {
    it('cannot set the link host', async () => {
      const s = server();
      assert.ok((await tileUrl(s, FORGED)).startsWith(`${s.url}/cog/`));
    });
  });
});

describe('a hop count', () => {
  withServer(1, (server) => {
    it('does not trust Host/Proto (Fastify cannot validate the peer from a count)', async () => {
      const s = server();
      assert.ok((await tileUrl(s, FORGED)).startsWith(`${s.url}/cog/`));
    });
  });
});

describe('parseTrustProxy (RASTILE_TRUST_PROXY / --trust-proxy)', () => {
  it('reads booleans, hop counts and address lists', () => {
    assert.equal(parseTrustProxy(undefined), false);
    assert.equal(parseTrustProxy(''), false);
    assert.equal(parseTrustProxy('false'), false);
    assert.equal(parseTrustProxy('TRUE'), true);
    assert.equal(parseTrustProxy('2'), 2);
    assert.equal(parseTrustProxy('127.0.0.1'), '127.0.0.1');
    assert.equal(parseTrustProxy(' 10.0.0.0/8 , ::1, loopback '), '10.0.0.0/8,::1,loopback');
  });
  it('rejects anything else', () => {
    assert.throws(() => parseTrustProxy('yes'), /RASTILE_TRUST_PROXY: 'yes'/);
    assert.throws(() => parseTrustProxy('10.0.0.1,proxy.example'), /'proxy.example'/);
  });
});
