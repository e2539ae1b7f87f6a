/**
 * /cog image endpoints other than tile pixels (those are compared with GDAL in tiles-oracle):
 * previews, bbox and feature crops, point values, output formats, algorithms, colormaps,
 * and their validation errors.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import sharp, { type Metadata } from 'sharp';
import { parseNpy } from '../helpers/npy.ts';
import { fixture, q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { hasRasterio } from '../helpers/oracles.ts';

const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as {
  files: Record<
    string,
    {
      info: { bounds: number[]; width: number; height: number };
      wgs84_bounds: number[];
      statistics_default: { stats: Record<string, { min: number; max: number }> };
    }
  >;
};
const UINT16 = q(fixture('datasets', 'uint16_nodata_utm.tif'));
const RGB = q(fixture('datasets', 'rgb_uint8_utm.tif'));
const DEMO = q(`${REPO}/demo/rastile-demo.tif`);

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.close();
});

async function image(path: string, init?: RequestInit): Promise<{ status: number; type: string; meta: Metadata; body: Buffer; headers: Headers }> {
  const r = await server.get(path, init);
  const body = Buffer.from(await r.arrayBuffer());
  assert.equal(r.status, 200, `${path}: ${body.toString().slice(0, 300)}`);
  return { status: r.status, type: r.headers.get('content-type') ?? '', meta: await sharp(body).metadata(), body, headers: r.headers };
}

describe('preview', () => {
  it('auto format: JPEG without masked pixels, PNG with', async () => {
    const a = await image(`/cog/preview?url=${RGB}&max_size=256`);
    assert.equal(a.type, 'image/jpeg');
    assert.equal(Math.max(a.meta.width!, a.meta.height!), 256);
    const b = await image(`/cog/preview?url=${UINT16}&max_size=256&rescale=0,40000`);
    assert.equal(b.type, 'image/png');
    assert.equal(b.meta.channels, 2); // gray + alpha
  });

  it('sizes: max_size, width/height override, /{w}x{h}', async () => {
    const { width: W, height: H } = expected.files['uint16_nodata_utm.tif'].info;
    const a = await image(`/cog/preview.png?url=${UINT16}&rescale=0,40000&max_size=128`);
    assert.deepEqual([a.meta.width, a.meta.height], [128, Math.ceil((128 * H) / W)]);
    const b = await image(`/cog/preview.png?url=${UINT16}&rescale=0,40000&max_size=128&width=300&height=100`);
    assert.deepEqual([b.meta.width, b.meta.height], [300, 100]);
    const c = await image(`/cog/preview/64x32.png?url=${UINT16}&rescale=0,40000`);
    assert.deepEqual([c.meta.width, c.meta.height], [64, 32]);
    const d = await image(`/cog/preview.png?url=${UINT16}&rescale=0,40000&width=100`);
    assert.deepEqual([d.meta.width, d.meta.height], [100, Math.ceil((100 * H) / W)]);
  });

  it('npy: data bands plus mask band, same values the statistics see', async () => {
    const r = await server.get(`/cog/preview.npy?url=${UINT16}`);
    assert.equal(r.headers.get('content-type'), 'application/x-binary');
    const a = parseNpy(Buffer.from(await r.arrayBuffer()));
    const { width: W, height: H } = expected.files['uint16_nodata_utm.tif'].info;
    assert.deepEqual(a.shape, [2, H, W]);
    assert.equal(a.descr, '<u2');
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < W * H; i++) {
      if (a.data[W * H + i] === 0) continue; // mask band: 0 masked, 65535 valid
      min = Math.min(min, a.data[i]);
      max = Math.max(max, a.data[i]);
    }
    const s = expected.files['uint16_nodata_utm.tif'].statistics_default.stats['b1'];
    assert.deepEqual([min, max], [s.min, s.max]);
    const noMask = parseNpy(Buffer.from(await (await server.get(`/cog/preview.npy?url=${UINT16}&return_mask=false`)).arrayBuffer()));
    assert.equal(noMask.shape[0], 1);
  });

  it('GeoTIFF output is georeferenced; dst_crs reprojects', { skip: !hasRasterio && 'needs /usr/bin/python3 with rasterio' }, async () => {
    for (const [query, epsg] of [
      ['', 32618],
      ['&dst_crs=epsg:4326', 4326],
    ] as const) {
      const r = await server.get(`/cog/preview.tif?url=${UINT16}${query}`);
      assert.equal(r.headers.get('content-type'), 'image/tiff; application=geotiff');
      const body = Buffer.from(await r.arrayBuffer());
      const out = execFileSync(
        '/usr/bin/python3',
        [
          '-c',
          'import sys,io,rasterio,json\nwith rasterio.io.MemoryFile(sys.stdin.buffer.read()) as m:\n  d=m.open(); print(json.dumps([d.crs.to_epsg(), d.count, d.dtypes[0], list(d.bounds)]))',
        ],
        { input: body },
      );
      const [code, count, dtype, bounds] = JSON.parse(out.toString()) as [number, number, string, number[]];
      assert.equal(code, epsg);
      assert.equal(count, 2);
      assert.equal(dtype, 'uint16');
      if (epsg === 32618) assert.deepEqual(bounds, expected.files['uint16_nodata_utm.tif'].info.bounds);
      else bounds.forEach((v, i) => assert.ok(Math.abs(v - expected.files['uint16_nodata_utm.tif'].wgs84_bounds[i]) < 0.01));
    }
  });

  it('unscale gives float32; return_mask=false drops the mask band', async () => {
    const a = parseNpy(
      Buffer.from(
        await (await server.get(`/cog/preview.npy?url=${q(fixture('datasets', 'int16_scale_laea.tif'))}&unscale=true&return_mask=false`)).arrayBuffer(),
      ),
    );
    assert.equal(a.descr, '<f4');
    assert.equal(a.shape[0], 1);
  });

  it('Content-Bbox and Content-Crs headers', async () => {
    const r = await image(`/cog/preview.png?url=${UINT16}&rescale=0,40000`);
    const b = expected.files['uint16_nodata_utm.tif'].info.bounds;
    assert.deepEqual(r.headers.get('content-bbox')!.split(',').map(Number), b);
    assert.match(r.headers.get('content-bbox')!, /\.0,/); // Python float repr
    assert.equal(r.headers.get('content-crs'), '<http://www.opengis.net/def/crs/EPSG/0/32618>');
  });
});

describe('bbox and feature crops', () => {
  const [w, s, e, n] = expected.files['uint16_nodata_utm.tif'].wgs84_bounds;
  const bbox = [w + (e - w) * 0.2, s + (n - s) * 0.2, w + (e - w) * 0.7, s + (n - s) * 0.8].join(',');

  it('bbox in EPSG:4326 by default, output in the bbox CRS', async () => {
    const a = await image(`/cog/bbox/${bbox}.png?url=${UINT16}&rescale=0,40000&max_size=256`);
    assert.equal(Math.max(a.meta.width!, a.meta.height!), 256);
    assert.equal(a.headers.get('content-crs'), '<http://www.opengis.net/def/crs/EPSG/0/4326>');
    const b = await image(`/cog/bbox/${bbox}/128x128.png?url=${UINT16}&rescale=0,40000`);
    assert.deepEqual([b.meta.width, b.meta.height], [128, 128]);
    const c = await image(`/cog/bbox/${bbox}.png?url=${UINT16}&rescale=0,40000&dst_crs=epsg:32618&max_size=64`);
    assert.equal(c.headers.get('content-crs'), '<http://www.opengis.net/def/crs/EPSG/0/32618>');
    const j = await image(`/cog/bbox/${bbox}.jpg?url=${UINT16}&rescale=0,40000&max_size=64&return_mask=false`);
    assert.equal(j.type, 'image/jpg');
  });

  it('feature: pixels outside the geometry are transparent', async () => {
    const triangle = {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [w + (e - w) * 0.3, s + (n - s) * 0.3],
            [w + (e - w) * 0.7, s + (n - s) * 0.3],
            [w + (e - w) * 0.5, s + (n - s) * 0.7],
            [w + (e - w) * 0.3, s + (n - s) * 0.3],
          ],
        ],
      },
    };
    const r = await fetch(`${server.url}/cog/feature/100x100.png?url=${UINT16}&rescale=0,40000`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(triangle),
    });
    assert.equal(r.status, 200);
    const { data, info } = await sharp(Buffer.from(await r.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height], [100, 100]);
    const c = info.channels; // alpha is the last channel
    assert.equal(data[(0 * 100 + 0) * c + c - 1], 0, 'top-left corner outside the triangle');
    assert.equal(data[(70 * 100 + 50) * c + c - 1], 255, 'inside the triangle');
    const bad = await fetch(`${server.url}/cog/feature.png?url=${UINT16}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'FeatureCollection', features: [] }),
    });
    assert.equal(bad.status, 422);
  });
});

describe('point', () => {
  const [w, s, e, n] = expected.files['uint16_nodata_utm.tif'].wgs84_bounds;
  const lon = w + (e - w) * 0.5;
  const lat = s + (n - s) * 0.5;

  it('values equal rasterio sample()', { skip: !hasRasterio && 'needs /usr/bin/python3 with rasterio' }, async () => {
    const r = await server.getJson<{ coordinates: number[]; values: Array<number | null>; band_names: string[]; band_descriptions: string[] }>(
      `/cog/point/${lon},${lat}?url=${UINT16}`,
    );
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.coordinates, [lon, lat]);
    assert.deepEqual(r.body.band_names, ['b1']);
    const out = execFileSync('/usr/bin/python3', [
      '-c',
      `import rasterio\nfrom rasterio.warp import transform\nd=rasterio.open(${JSON.stringify(fixture('datasets', 'uint16_nodata_utm.tif'))})\nx,y=transform('EPSG:4326',d.crs,[${lon}],[${lat}])\nprint(list(d.sample([(x[0],y[0])]))[0][0])`,
    ]);
    assert.equal(r.body.values[0], Number(out.toString()));
  });

  it('duplicates, expressions, coord_crs, masked → null, outside → 404', async () => {
    const dup = await server.getJson<{ values: number[]; band_names: string[] }>(`/cog/point/${lon},${lat}?url=${UINT16}&bidx=1&bidx=1`);
    assert.deepEqual(dup.body.band_names, ['b1', 'b1']);
    const plain = await server.getJson<{ values: number[] }>(`/cog/point/${lon},${lat}?url=${UINT16}`);
    const expr = await server.getJson<{ values: number[]; band_descriptions: string[] }>(`/cog/point/${lon},${lat}?url=${UINT16}&expression=b1*2`);
    assert.equal(expr.body.values[0], plain.body.values[0] * 2);
    assert.deepEqual(expr.body.band_descriptions, ['b1*2']);
    const b = expected.files['uint16_nodata_utm.tif'].info.bounds;
    const utm = await server.getJson<{ values: Array<number | null> }>(`/cog/point/${b[0] + 10},${b[3] - 10}?url=${UINT16}&coord_crs=EPSG:32618`);
    assert.deepEqual(utm.body.values, [null]); // top rows are nodata
    const out = await server.getJson<{ detail: string }>(`/cog/point/0,0?url=${UINT16}`);
    assert.equal(out.status, 404);
    assert.match(out.body.detail, /outside/);
  });
});

describe('tiles: formats and edge cases', () => {
  it('outside the dataset → 404 with TiTiler detail, not kept by caches (no-store, issue 12)', async () => {
    const r = await server.get(`/cog/tiles/WebMercatorQuad/15/0/0?url=${UINT16}`);
    assert.equal(r.status, 404);
    assert.deepEqual(await r.json(), { detail: 'Tile(x=0, y=0, z=15) is outside bounds' });
    assert.equal(r.headers.get('cache-control'), 'no-store');
  });

  it('every format; jp2 is a clear 400', async () => {
    const tile = '/cog/tiles/WebMercatorQuad/11/1072/724';
    const tj = await server.getJson<{ tiles: string[]; minzoom: number; maxzoom: number }>(`/cog/WebMercatorQuad/tilejson.json?url=${DEMO}`);
    assert.equal(tj.status, 200);
    const types: Record<string, string> = {
      png: 'image/png',
      pngraw: 'image/png',
      jpeg: 'image/jpeg',
      jpg: 'image/jpg',
      webp: 'image/webp',
      tif: 'image/tiff; application=geotiff',
      npy: 'application/x-binary',
    };
    for (const [fmt, type] of Object.entries(types)) {
      const r = await server.get(`${tile}.${fmt}?url=${DEMO}&rescale=0,3000`);
      assert.equal(r.status, 200, `${fmt}: ${await r.clone().text()}`);
      assert.equal(r.headers.get('content-type'), type, fmt);
    }
    const jp2 = await server.getJson<{ detail: string }>(`${tile}.jp2?url=${DEMO}&rescale=0,3000`);
    assert.equal(jp2.status, 400);
    assert.match(jp2.body.detail, /JPEG 2000 output takes 1 band/);
  });

  it('tilesize and buffer change the output size; npy shape', async () => {
    const t = await image(`/cog/tiles/WebMercatorQuad/10/536/362.png?url=${DEMO}&rescale=0,3000&tilesize=512`);
    assert.deepEqual([t.meta.width, t.meta.height], [512, 512]);
    const n = parseNpy(Buffer.from(await (await server.get(`/cog/tiles/WebMercatorQuad/10/536/362.npy?url=${DEMO}&buffer=10`)).arrayBuffer()));
    assert.deepEqual(n.shape, [2, 276, 276]);
  });

  it('colormaps: named, JSON dict and intervals; bad colours are 400', async () => {
    const base = `/cog/tiles/WebMercatorQuad/10/536/362.png?url=${DEMO}`;
    await image(`${base}&rescale=0,3000&colormap_name=viridis`);
    await image(`${base}&colormap=${q(JSON.stringify({ 1: [58, 102, 24, 255], 2: [100, 177, 41], 3: '#b1b129', 4: '#ddcb9aFF' }))}`);
    await image(
      `${base}&colormap=${q(
        JSON.stringify([
          [
            [0, 1000],
            [0, 0, 0, 255],
          ],
          [
            [1000, 5000],
            [255, 0, 0, 255],
          ],
        ]),
      )}`,
    );
    const bad = await server.get(`${base}&colormap=${q(JSON.stringify({ 1: [58, 102] }))}`);
    assert.equal(bad.status, 400);
  });
});

describe('algorithms', () => {
  it('on previews, tiles and statistics', async () => {
    const h = await image(`/cog/preview.png?url=${DEMO}&algorithm=hillshade&max_size=128`);
    assert.equal(h.meta.channels, 2);
    const t = parseNpy(Buffer.from(await (await server.get(`/cog/preview.npy?url=${DEMO}&algorithm=terrarium&max_size=64`)).arrayBuffer()));
    assert.equal(t.descr, '|u1');
    assert.equal(t.shape[0], 4); // 3 RGB bands + mask
    const tile = await image(`/cog/tiles/WebMercatorQuad/10/536/362.png?url=${DEMO}&algorithm=hillshade&buffer=3`);
    assert.deepEqual([tile.meta.width, tile.meta.height], [256, 256]);
    const s = await server.getJson<Record<string, { description: string }>>(`/cog/statistics?url=${UINT16}&bidx=1&bidx=1&algorithm=normalizedIndex`);
    assert.deepEqual(Object.keys(s.body), ['b1']);
    assert.equal(s.body['b1'].description, '(b1 - b1) / (b1 + b1)');
  });

  it('bad algorithm parameters → 400, malformed JSON → 422', async () => {
    const r = await server.getJson<{ detail: string }>(`/cog/preview.png?url=${DEMO}&algorithm=hillshade&algorithm_params=${q('{"azimuth": 400}')}`);
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /azimuth/);
    const m = await server.get(`/cog/preview.png?url=${DEMO}&algorithm=hillshade&algorithm_params=${q('{azimuth')}`);
    assert.equal(m.status, 422);
  });

  it('/algorithms and /algorithms/{id}', async () => {
    const list = await server.getJson<{ algorithms: Array<{ id: string }> }>('/algorithms');
    assert.equal(list.body.algorithms.length, 18);
    assert.equal(list.body.algorithms[0].id, 'hillshade');
    const h = await server.getJson<{ title: string; parameters: Record<string, Record<string, unknown>> }>('/algorithms/hillshade');
    assert.equal(h.body.title, 'Hillshade');
    assert.deepEqual(h.body.parameters['azimuth'], { default: 45, maximum: 360, minimum: 0, title: 'Azimuth', type: 'integer' });
    assert.equal((await server.get('/algorithms/hillshad')).status, 422);
    assert.match((await server.get('/algorithms', { headers: { accept: 'text/html' } })).headers.get('content-type') ?? '', /text\/html/);
  });
});

describe('colorMaps', () => {
  it('list, JSON and legend images', async () => {
    const list = await server.getJson<{ colormaps: Array<{ id: string }> }>('/colorMaps');
    assert.equal(list.body.colormaps.length, 211);
    const v = await server.getJson<Record<string, number[]>>('/colorMaps/viridis');
    assert.deepEqual(v.body['1'], [68, 2, 85, 255]);
    const png = await image('/colorMaps/viridis?f=png');
    assert.deepEqual([png.meta.width, png.meta.height, png.meta.channels], [256, 20, 4]);
    const vert = await image('/colorMaps/viridis?f=png&orientation=vertical');
    assert.deepEqual([vert.meta.width, vert.meta.height], [20, 256]);
    const big = await image('/colorMaps/viridis?f=png&width=1000&height=100');
    assert.deepEqual([big.meta.width, big.meta.height], [1000, 100]);
    assert.equal((await server.get('/colorMaps/notacolormap')).status, 422);
  });
});

describe('422s of the image endpoints', () => {
  const cases = [
    [`/cog/preview.xyz?url=${DEMO}`, ['path', 'format']],
    [`/cog/preview.png?url=${DEMO}&rescale=0`, ['query', 'rescale', 0]],
    [`/cog/preview.png?url=${DEMO}&rescale=a,b`, ['query', 'rescale', 0]],
    [`/cog/preview.png?url=${DEMO}&colormap_name=viridiss`, ['query', 'colormap_name']],
    [`/cog/preview.png?url=${DEMO}&colormap=${q('{bad json')}`, ['query', 'colormap']],
    [`/cog/preview.png?url=${DEMO}&color_formula=${q('Gamma X')}`, ['query', 'color_formula']],
    [`/cog/tiles/WebMercatorQuad/10/536/362?url=${DEMO}&tilesize=32`, ['query', 'tilesize']],
    [`/cog/tiles/WebMercatorQuad/10/536/362?url=${DEMO}&tilesize=5000`, ['query', 'tilesize']],
    [`/cog/tiles/WebMercatorQuad/10/536/362?url=${DEMO}&buffer=0.3`, ['query', 'buffer']],
    [`/cog/tiles/WebMercatorQuad/a/536/362?url=${DEMO}`, ['path', 'z']],
    [`/cog/preview.png?url=${DEMO}&width=999999`, ['query', 'width']],
    [`/cog/preview/99999x10.png?url=${DEMO}`, ['path', 'width']],
  ] as const;
  for (const [path, loc] of cases) {
    it(path.replace(DEMO, '<demo>'), async () => {
      const r = await server.getJson<{ detail: Array<{ loc: unknown[] }> }>(path);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.deepEqual(r.body.detail[0].loc, loc);
    });
  }
  it('@2x suffix and tile_scale are not served (version 2)', async () => {
    assert.equal((await server.get(`/cog/tiles/WebMercatorQuad/10/536/362@2x.png?url=${DEMO}`)).status, 422);
  });
  it('an invalid expression is a 400', async () => {
    const r = await server.getJson<{ detail: string }>(`/cog/preview.png?url=${DEMO}&expression=${q('b1+*')}`);
    assert.equal(r.status, 400);
  });
});
