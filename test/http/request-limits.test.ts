/**
 * Limits met before routing answer in our format: `{"detail": …}` naming the limit and its value
 * (431 from node's parser, 414 from the router, 422 for a too-deep JSON body, 413 for a too-large one).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { jsonDepthExceeds } from '../../src/http/request-limits.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer((c) => {
    c.limits.maxBodyBytes = 64 * 1024;
  });
});
after(async () => {
  await server.close();
});

/** Sends raw bytes, returns status and parsed JSON body of the answer. */
function rawRequest(text: string): Promise<{ status: number; body: unknown }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head ?? '')?.[1]);
      resolve({ status, body: JSON.parse(rest.join('\r\n\r\n')) as unknown });
    });
  });
}

describe('limits before routing', () => {
  it('431: query string over the head limit', async () => {
    const r = await rawRequest(`GET /cog/info?url=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.equal(r.status, 431);
    assert.deepEqual(r.body, { detail: 'Request line and headers (URL and query string included) exceed the limit of 16384 bytes' });
  });
  it('431: one header over the head limit', async () => {
    const r = await rawRequest(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal(r.status, 431);
  });
  it('400: not HTTP at all', async () => {
    const r = await rawRequest('GARBAGE\r\n\r\n');
    assert.equal(r.status, 400);
    assert.match((r.body as { detail: string }).detail, /Malformed HTTP request/);
  });
  it('414: a path parameter over 2048 characters', async () => {
    const r = await server.getJson<{ detail: string }>(`/cog/tiles/WebMercatorQuad/1/1/${'1'.repeat(3000)}.png?url=x`);
    assert.equal(r.status, 414);
    assert.deepEqual(r.body, { detail: 'A path parameter is longer than the limit of 2048 characters' });
  });
  it('422: JSON nested deeper than 64 levels, before it is parsed', async () => {
    const r = await fetch(`${server.url}/cog/statistics?url=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '['.repeat(20_000) + ']'.repeat(20_000),
    });
    assert.equal(r.status, 422);
    const body = (await r.json()) as { detail: Array<{ msg: string; ctx: { max_depth: number } }> };
    assert.equal(body.detail[0]!.msg, 'JSON body nests deeper than the limit of 64 levels');
    assert.equal(body.detail[0]!.ctx.max_depth, 64);
  });
  it('413: body over the configured limit, naming it', async () => {
    const r = await fetch(`${server.url}/cog/statistics?url=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"a":"${'x'.repeat(70_000)}"}`,
    });
    assert.equal(r.status, 413);
    assert.deepEqual(await r.json(), { detail: 'Request body is larger than the limit of 65536 bytes (RASTILE_MAX_BODY_MB)' });
  });
  it('the server still answers', async () => {
    assert.equal((await server.get('/healthz')).status, 200);
  });
});

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, skips strings and escapes', () => {
    assert.equal(jsonDepthExceeds('[[[1]]]', 3), false);
    assert.equal(jsonDepthExceeds('[[[1]]]', 2), true);
    assert.equal(jsonDepthExceeds('{"a":{"b":[]}}', 3), false);
    assert.equal(jsonDepthExceeds('{"a":"[[[[\\"[[[["}', 1), false);
  });
});
