/**
 * /colorMaps/{id}?f=html&rescale=min,max: the legend labelled with values. Oracle: the label of a
 * value sits on the legend pixel drawn with the colormap entry a tile rescaled to min,max gives
 * that value ((v − min)/(max − min) × 255, /colorMaps/{id} JSON for the colours).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';

describe('colormap legend labels (rescale)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('f=html&rescale=12,845: labels 12, 250, 500, 845 beside the pixels of their colours', async () => {
    const r = await server.get('/colorMaps/viridis?f=html&rescale=12,845');
    assert.equal(r.status, 200);
    const html = await r.text();
    const ticks = [...html.matchAll(/<span class="tick" data-value="([^"]+)" data-position="([^"]+)"[^>]*>([^<]+)<\/span>/g)].map((m) => ({
      value: Number(m[1]),
      position: Number(m[2]),
      text: m[3],
    }));
    assert.deepEqual(
      ticks.map((t) => t.text),
      ['12', '250', '500', '845'],
    );
    const src = /<img alt="viridis" src="data:image\/png;base64,([^"]+)"/.exec(html)![1]!;
    const { data, info } = await sharp(Buffer.from(src, 'base64')).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.height, 256);
    const cmap = (await server.getJson<Record<string, number[]>>('/colorMaps/viridis')).body;
    for (const t of ticks) {
      const row = Math.floor(t.position * info.height);
      const px = [...data.subarray(row * info.width * info.channels, row * info.width * info.channels + 3)];
      const entry = ((t.value - 12) / (845 - 12)) * 255;
      const candidates = [Math.floor(entry), Math.round(entry)].map((e) => cmap[String(e)]!.slice(0, 3));
      assert.ok(
        candidates.some((c) => c.every((v, i) => v === px[i])),
        `${t.value}: pixel ${px} at row ${row}, entries ${JSON.stringify(candidates)}`,
      );
    }
  });

  it('without rescale the HTML legend has no labels; image legends refuse rescale (400)', async () => {
    const html = await (await server.get('/colorMaps/viridis?f=html')).text();
    assert.ok(!html.includes('class="tick"'));
    assert.ok(html.includes('<img alt="viridis" src="data:image/png;base64,'));
    const png = await server.get('/colorMaps/viridis?f=png&rescale=0,1');
    assert.equal(png.status, 400);
    assert.match(((await png.json()) as { detail: string }).detail, /rescale labels the HTML legend/);
    assert.equal((await server.get('/colorMaps/viridis?f=html&rescale=5,1')).status, 422);
  });
});
