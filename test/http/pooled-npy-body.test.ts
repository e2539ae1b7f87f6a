/**
 * `.npy` tiles are written into recycled buffers (src/util/pooled-body.ts): whatever the order
 * of requests, and with the response cache on (it stores and shares bodies) or off, every answer
 * has the bytes of the same tile rendered alone in a fresh server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseNpy } from '../helpers/npy.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const tile = (x: number, y: number): string =>
  `/zarr/tiles/WebMercatorQuad/1/${x}/${y}.npy?url=${q(fixture('array', 'sst-nc4.nc'))}&variable=sst&sel=time=2000-02-01`;
const A = tile(0, 0);
const B = tile(1, 1);

async function bytes(server: TestServer, path: string): Promise<Buffer> {
  const r = await server.get(path);
  assert.equal(r.status, 200, await r.clone().text());
  return Buffer.from(await r.arrayBuffer());
}

for (const cacheMb of [0, 64]) {
  describe(`pooled .npy bodies, response cache ${cacheMb} MiB`, () => {
    let server: TestServer;
    let alone: { a: Buffer; b: Buffer };
    before(async () => {
      // Each tile rendered alone, by a server of its own.
      const one = async (path: string): Promise<Buffer> => {
        const s = await startTestServer((c) => (c.responseCache = { ...c.responseCache!, memoryBytes: 0 }));
        try {
          return await bytes(s, path);
        } finally {
          await s.close();
        }
      };
      alone = { a: await one(A), b: await one(B) };
      server = await startTestServer((c) => (c.responseCache = { ...c.responseCache!, memoryBytes: cacheMb * 1024 * 1024 }));
    });
    after(() => server.close());

    it('sequential and concurrent requests each get their own tile', async () => {
      assert.deepEqual(parseNpy(alone.a).shape, [2, 256, 256]);
      assert.ok(!alone.a.equals(alone.b), 'the two tiles differ');
      for (const path of [A, B, A, B, A]) assert.ok((await bytes(server, path)).equals(path === A ? alone.a : alone.b), path);
      const together = await Promise.all([A, B, A, B, B, A].map((p) => bytes(server, p)));
      together.forEach((got, i) => assert.ok(got.equals(i === 0 || i === 2 || i === 5 ? alone.a : alone.b), `concurrent request ${i}`));
    });
  });
}
