/**
 * GET /cog/{tms}/tilejson.json and /cog/tilejson.json (TiTiler §2.3, §3.4, §13.1/13.2 pins).
 * Oracles: dataset info and WGS84 bounds from GDAL/rasterio (test/fixtures/datasets/expected.json),
 * zoom levels computed here from the TMS cell sizes with TiTiler's rule (§7.5), the tile set
 * endpoint for consistency, and the tiles themselves (the templated URL must serve the tile).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startRangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

interface FixtureInfo {
  bounds: [number, number, number, number];
  width: number;
  height: number;
  dtype: string;
  band_descriptions: Array<[string, string]>;
  band_metadata: Array<[string, Record<string, string>]>;
}
const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as {
  files: Record<string, { info: FixtureInfo; wgs84_bounds: [number, number, number, number] }>;
};
const FILES = Object.keys(expected.files);
const ds = (name: string): string => fixture('datasets', name);
const DEMO = path.join(REPO, 'demo', 'rastile-demo.tif');

interface TileJson {
  tilejson: string;
  version: string;
  scheme: string;
  tiles: string[];
  minzoom: number;
  maxzoom: number;
  bounds: number[];
  center: number[];
  raster_layers: Record<string, unknown>;
  band_descriptions: Array<[string, string]>;
  data_type: string;
  minmax?: number[][];
}

interface TileSet {
  boundingBox: { lowerLeft: number[]; upperRight: number[]; crs: string };
  tileMatrixSetLimits: Array<{ tileMatrix: string; minTileRow: number; maxTileRow: number; minTileCol: number; maxTileCol: number }>;
}

/** The query of a TileJSON tile URL as [key, value] pairs, in order. */
const tileQuery = (tile: string): Array<[string, string]> => [...new URL(tile.replace('{z}/{x}/{y}', '0/0/0')).searchParams];

const close = (a: number[], b: number[], tol: number, what: string): void => {
  assert.equal(a.length, b.length, what);
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]!) <= tol, `${what}[${i}]: ${v} vs ${b[i]}`));
};

/**
 * TiTiler's dataset zoom range (§7.5) for a dataset already in the TMS CRS: maxzoom from the
 * native resolution, minzoom from the resolution of the coarsest 256-px "overview" level.
 */
function zoomRange(cellSize0: number, info: FixtureInfo): { minzoom: number; maxzoom: number } {
  const cell = (z: number): number => cellSize0 / 2 ** z;
  const zoomForRes = (res: number): number => {
    let z = 0;
    while (z < 30 && !(res > cell(z) || Math.abs(res - cell(z)) / cell(z) <= 1e-8)) z++;
    if (z > 0 && Math.abs(res - cell(z)) / cell(z) > 1e-8 && cell(z - 1) / res < res / cell(z)) z--;
    return z;
  };
  const [minx, miny, maxx, maxy] = info.bounds;
  const res = Math.max((maxx - minx) / info.width, (maxy - miny) / info.height);
  let level = 0;
  while (Math.min(Math.floor(info.width / 2 ** level), Math.floor(info.height / 2 ** level)) > 256) level++;
  return { minzoom: zoomForRes(res * 2 ** level), maxzoom: zoomForRes(res) };
}

describe('/cog TileJSON', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('TileJSON 3.0.0 document for every fixture: fields, bounds (GDAL), zooms (tile set), band info', async () => {
    for (const name of FILES) {
      const want = expected.files[name]!;
      const r = await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(ds(name))}`);
      assert.equal(r.status, 200, name);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      const tj = r.body;
      const keys = ['tilejson', 'version', 'scheme', 'tiles', 'minzoom', 'maxzoom', 'bounds', 'center', 'raster_layers', 'band_descriptions', 'data_type'];
      assert.deepEqual(
        Object.keys(tj).filter((k) => k !== 'minmax'),
        keys,
        name,
      );
      assert.ok(!Object.values(tj).includes(null), `${name}: null values are omitted`);
      assert.equal(tj.tilejson, '3.0.0');
      assert.equal(tj.version, '1.0.0');
      assert.equal(tj.scheme, 'xyz');
      assert.equal(tj.tiles.length, 1);
      assert.deepEqual(tj.raster_layers, {});
      // WebMercatorQuad's geographic CRS is EPSG:4326: bounds as rasterio's transform_bounds
      close(tj.bounds, want.wgs84_bounds, 1e-7, `${name} bounds`);
      const [w, s, e, n] = tj.bounds as [number, number, number, number];
      assert.deepEqual(tj.center, [(w + e) / 2, (s + n) / 2, tj.minzoom], name);
      assert.deepEqual(tj.band_descriptions, want.info.band_descriptions, name);
      assert.equal(tj.data_type, want.info.dtype, name);
      // the GDAL statistics metadata, when every band has it, gives minmax
      const stats = want.info.band_metadata.map(([, m]) =>
        m['STATISTICS_MINIMUM'] !== undefined && m['STATISTICS_MAXIMUM'] !== undefined
          ? [Number(m['STATISTICS_MINIMUM']), Number(m['STATISTICS_MAXIMUM'])]
          : null,
      );
      if (stats.every((v) => v !== null)) assert.deepEqual(tj.minmax, stats, name);
      else assert.equal(tj.minmax, undefined, name);
      // zooms as the tile set reports them
      const ts = await server.getJson<TileSet>(`/cog/tiles/WebMercatorQuad?url=${q(ds(name))}`);
      const lim = ts.body.tileMatrixSetLimits;
      assert.equal(tj.minzoom, Number(lim[0]!.tileMatrix), name);
      assert.equal(tj.maxzoom, Number(lim[lim.length - 1]!.tileMatrix), name);
    }
  });

  it('zoom range from the dataset resolution (§7.5), for datasets native to the TMS CRS', async () => {
    // WebMercatorQuad: zoom 0 cell size = 2πR / 256; WorldCRS84Quad: 360° / 512 px
    const cases = [
      ['rgba_alpha_3857.tif', 'WebMercatorQuad', (2 * Math.PI * 6378137) / 256],
      ['float32_nan_4326.tif', 'WorldCRS84Quad', 360 / 512],
      ['float64_global_4326.tif', 'WorldCRS84Quad', 360 / 512],
    ] as const;
    for (const [name, tms, cell0] of cases) {
      const tj = await server.getJson<TileJson>(`/cog/${tms}/tilejson.json?url=${q(ds(name))}`);
      const want = zoomRange(cell0, expected.files[name]!.info);
      assert.deepEqual({ minzoom: tj.body.minzoom, maxzoom: tj.body.maxzoom }, want, `${name} in ${tms}`);
    }
    // a dataset large enough for minzoom < maxzoom: the demo (1024², UTM 32N) becomes 1031×1034 px
    // in Web Mercator (rasterio calculate_default_transform), so 3 halvings (1031/4 = 257 > 256)
    const demo = await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(DEMO)}`);
    const res = 87.1722238297298; // the same rasterio call's pixel size
    const want = zoomRange((2 * Math.PI * 6378137) / 256, { bounds: [0, 0, res * 1031, res * 1034], width: 1031, height: 1034 } as FixtureInfo);
    assert.deepEqual({ minzoom: demo.body.minzoom, maxzoom: demo.body.maxzoom }, want);
    assert.equal(want.maxzoom - want.minzoom, 3);
  });

  it('tiles URL: literal {z}/{x}/{y}, the request query, tilesize=512 appended, and it serves the tile', async () => {
    const name = 'uint16_nodata_utm.tif';
    const tj = (await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(ds(name))}&rescale=0,1000`)).body;
    const tile = tj.tiles[0]!;
    // §13.1: http://testserver/cog/tiles/WebMercatorQuad/{z}/{x}/{y}?url=https… — braces literal, url form-encoded
    assert.ok(tile.startsWith(`${server.url}/cog/tiles/WebMercatorQuad/{z}/{x}/{y}?url=${q(ds(name))}&`), tile);
    assert.ok(tile.includes('rescale=0%2C1000'), tile);
    assert.deepEqual(tileQuery(tile), [
      ['url', ds(name)],
      ['rescale', '0,1000'],
      ['tilesize', '512'],
    ]);
    // fill the template with the dataset's first tile at minzoom: a 512×512 image
    const ts = await server.getJson<TileSet>(`/cog/tiles/WebMercatorQuad?url=${q(ds(name))}`);
    const l = ts.body.tileMatrixSetLimits[0]!;
    const r = await fetch(tile.replace('{z}', l.tileMatrix).replace('{x}', String(l.minTileCol)).replace('{y}', String(l.minTileRow)));
    assert.equal(r.status, 200);
    const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [512, 512]);
  });

  it('a remote url is form-encoded in the tiles URL (§13.1: `?url=https%3A…`)', async () => {
    const remote = await startRangeServer({ root: fixture('datasets') });
    try {
      const url = `${remote.url}/rgb_uint8_utm.tif`;
      const tj = (await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(url)}`)).body;
      assert.equal(tj.tiles[0], `${server.url}/cog/tiles/WebMercatorQuad/{z}/{x}/{y}?url=${encodeURIComponent(url)}&tilesize=512`);
      assert.ok(tj.tiles[0]!.includes('?url=http%3A%2F%2F127.0.0.1%3A'), tj.tiles[0]);
    } finally {
      await remote.close();
    }
  });

  it('tiles URL query is encoded like Python urlencode: `*` → %2A, `~` kept (TiTiler links)', async () => {
    const file = ds('uint16_nodata_utm.tif');
    const tj = (await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(file)}&expression=${q('b1*2')}&note=${q('a~b c')}`)).body;
    const tile = tj.tiles[0]!;
    assert.ok(tile.endsWith('&expression=b1%2A2&note=a~b+c&tilesize=512'), tile);
  });

  it('tilesize: kept when given (64..4096), else 512; a differently-cased key is not tilesize', async () => {
    const base = `/cog/WebMercatorQuad/tilejson.json?url=${q(ds('rgb_uint8_utm.tif'))}`;
    for (const size of [64, 256, 1024, 4096]) {
      const tj = (await server.getJson<TileJson>(`${base}&tilesize=${size}`)).body;
      assert.deepEqual(tileQuery(tj.tiles[0]!), [
        ['url', ds('rgb_uint8_utm.tif')],
        ['tilesize', String(size)],
      ]);
    }
    const tj = (await server.getJson<TileJson>(`${base}&TileSize=256`)).body;
    assert.deepEqual(tileQuery(tj.tiles[0]!).slice(-2), [
      ['TileSize', '256'],
      ['tilesize', '512'],
    ]);
    for (const bad of ['0', '32', '63', '4097', '8192', '-256', '256.5', 'big']) {
      const r = await server.getJson<{ detail: Array<{ loc: unknown[] }> }>(`${base}&tilesize=${bad}`);
      assert.equal(r.status, 422, `tilesize=${bad}`);
      assert.deepEqual(r.body.detail[0]!.loc, ['query', 'tilesize'], `tilesize=${bad}`);
    }
  });

  it('tile_format → extension; tileMatrixSetId, tile_format, minzoom, maxzoom dropped; every render parameter carried in order', async () => {
    const file = ds('uint16_nodata_utm.tif');
    const render: Array<[string, string]> = [
      ['bidx', '1'],
      ['bidx', '1'],
      ['expression', 'b1*2'],
      ['nodata', '0'],
      ['unscale', 'true'],
      ['resampling', 'bilinear'],
      ['reproject', 'cubic'],
      ['rescale', '0,1000'],
      ['rescale', '[1, 2]'],
      ['color_formula', 'Gamma RGB 3'],
      ['return_mask', 'false'],
      ['colormap_name', 'viridis'],
      ['algorithm', 'hillshade'],
      ['algorithm_params', '{"azimuth":30,"angle_altitude":20}'],
      ['buffer', '1.5'],
      ['padding', '2'],
    ];
    const query = new URLSearchParams([['url', file], ['tile_format', 'png'], ...render, ['minzoom', '5'], ['maxzoom', '12']]);
    const tj = (await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?${query}`)).body;
    const tile = tj.tiles[0]!;
    assert.ok(tile.startsWith(`${server.url}/cog/tiles/WebMercatorQuad/{z}/{x}/{y}.png?`), tile);
    assert.deepEqual(tileQuery(tile), [['url', file], ...render, ['tilesize', '512']]);
    assert.ok(tile.includes('color_formula=Gamma+RGB+3'), `spaces as + (Python urlencode): ${tile}`);
    // minzoom/maxzoom override the dataset's (§13.2: 5/12); center uses minzoom
    assert.equal(tj.minzoom, 5);
    assert.equal(tj.maxzoom, 12);
    assert.equal(tj.center[2], 5);
    // only minzoom: maxzoom stays the dataset's
    const only = (await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(file)}&minzoom=3`)).body;
    const dflt = (await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(file)}`)).body;
    assert.deepEqual([only.minzoom, only.maxzoom], [3, dflt.maxzoom]);
    for (const fmt of ['jpeg', 'webp', 'tif', 'npy', 'pngraw']) {
      const t = (await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(file)}&tile_format=${fmt}`)).body;
      assert.ok(t.tiles[0]!.startsWith(`${server.url}/cog/tiles/WebMercatorQuad/{z}/{x}/{y}.${fmt}?url=`), t.tiles[0]);
    }
  });

  it('colormap JSON round-trips through the tile URL, and that URL renders it', async () => {
    const file = ds('palette_3413.tif');
    const colormap = '{"1":[58,102,24,255],"2":[100,177,41],"3":"#b1b129","4":"#ddcb9aFF"}';
    const tj = (await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(file)}&bidx=1&colormap=${q(colormap)}&tile_format=png`)).body;
    const params = new URL(tj.tiles[0]!.replace('{z}/{x}/{y}', '0/0/0')).searchParams;
    assert.equal(params.get('colormap'), colormap);
    assert.deepEqual(JSON.parse(params.get('colormap')!), JSON.parse(colormap));
    const ts = await server.getJson<TileSet>(`/cog/tiles/WebMercatorQuad?url=${q(file)}`);
    const l = ts.body.tileMatrixSetLimits[ts.body.tileMatrixSetLimits.length - 1]!;
    const x = Math.floor((l.minTileCol + l.maxTileCol) / 2),
      y = Math.floor((l.minTileRow + l.maxTileRow) / 2);
    const r = await fetch(tj.tiles[0]!.replace('{z}', l.tileMatrix).replace('{x}', String(x)).replace('{y}', String(y)));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/png');
  });

  it('non-WebMercator TMS: bounds in the TMS geographic CRS, tiles in that TMS, zooms of that TMS', async () => {
    for (const tms of ['WorldCRS84Quad', 'EuropeanETRS89_LAEAQuad', 'WGS1984Quad']) {
      for (const name of ['int16_scale_laea.tif', 'rgb_uint8_utm.tif']) {
        const tj = (await server.getJson<TileJson>(`/cog/${tms}/tilejson.json?url=${q(ds(name))}`)).body;
        assert.ok(tj.tiles[0]!.startsWith(`${server.url}/cog/tiles/${tms}/{z}/{x}/{y}?url=`), tj.tiles[0]);
        // OGC:CRS84, EPSG:4258 (ETRS89) and EPSG:4326 are the same datum to PROJ and GDAL
        // (null transformation), all with longitude first as TileJSON wants: GDAL's WGS84 bounds
        close(tj.bounds, expected.files[name]!.wgs84_bounds, 1e-7, `${name} in ${tms}`);
        const ts = (await server.getJson<TileSet>(`/cog/tiles/${tms}?url=${q(ds(name))}`)).body;
        assert.deepEqual(tj.bounds, [...ts.boundingBox.lowerLeft, ...ts.boundingBox.upperRight], `${name} in ${tms}`);
        assert.equal(tj.minzoom, Number(ts.tileMatrixSetLimits[0]!.tileMatrix));
        assert.equal(tj.maxzoom, Number(ts.tileMatrixSetLimits[ts.tileMatrixSetLimits.length - 1]!.tileMatrix));
      }
    }
    const laea = (await server.getJson<TileSet>(`/cog/tiles/EuropeanETRS89_LAEAQuad?url=${q(ds('int16_scale_laea.tif'))}`)).body;
    assert.equal(laea.boundingBox.crs, 'http://www.opengis.net/def/crs/EPSG/0/4258');
  });

  it('/cog/tilejson.json: WebMercatorQuad by default, tileMatrixSetId selects another TMS and is not copied', async () => {
    const file = ds('rgb_mask_2056.tif');
    const a = await server.getJson<TileJson>(`/cog/tilejson.json?url=${q(file)}`);
    const b = await server.getJson<TileJson>(`/cog/WebMercatorQuad/tilejson.json?url=${q(file)}`);
    assert.equal(a.status, 200);
    assert.deepEqual(a.body, b.body);
    const c = await server.getJson<TileJson>(`/cog/tilejson.json?url=${q(file)}&tileMatrixSetId=WorldCRS84Quad&rescale=0,255`);
    const d = await server.getJson<TileJson>(`/cog/WorldCRS84Quad/tilejson.json?url=${q(file)}&rescale=0,255`);
    assert.equal(c.status, 200);
    assert.deepEqual(c.body, d.body);
    assert.deepEqual(tileQuery(c.body.tiles[0]!), [
      ['url', file],
      ['rescale', '0,255'],
      ['tilesize', '512'],
    ]);
    assert.equal((await server.get(`/cog/WorldCRS84Quad/tilejson.json?url=${q(file)}`)).status, 200);
  });

  it('errors: invalid TMS and bad render parameters are 422 (FastAPI shape), a bad colour 400, a missing file 404', async () => {
    const file = q(ds('uint16_nodata_utm.tif'));
    const cases: Array<[string, number, unknown[] | null]> = [
      [`/cog/NZTM2000/tilejson.json?url=${file}`, 422, ['path', 'tileMatrixSetId']],
      [`/cog/tilejson.json?url=${file}&tileMatrixSetId=webmercatorquad`, 422, ['query', 'tileMatrixSetId']],
      [`/cog/WebMercatorQuad/tilejson.json`, 422, ['query', 'url']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&rescale=0`, 422, ['query', 'rescale', 0]],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&rescale=0,1000&rescale=a,b`, 422, ['query', 'rescale', 1]],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&colormap=${q('{1: [58,102,24]}')}`, 422, ['query', 'colormap']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&colormap_name=not_a_colormap`, 422, ['query', 'colormap_name']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&algorithm=hillshade&algorithm_params=notjson`, 422, ['query', 'algorithm_params']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&algorithm=nope`, 422, ['query', 'algorithm']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&color_formula=nonsense`, 422, ['query', 'color_formula']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&tile_format=gif`, 422, ['query', 'tile_format']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&minzoom=low`, 422, ['query', 'minzoom']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&resampling=somethingwrong`, 422, ['query', 'resampling']],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&buffer=0.3`, 422, ['query', 'buffer']],
      // TiTiler: a colour with 2 components is InvalidColorFormat → 400; out-of-range algorithm parameters → 400
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&colormap=${q('{"1":[58,102]}')}`, 400, null],
      [`/cog/WebMercatorQuad/tilejson.json?url=${file}&algorithm=hillshade&algorithm_params=${q('{"azimuth":1000}')}`, 400, null],
      [`/cog/WebMercatorQuad/tilejson.json?url=${q(ds('missing.tif'))}`, 404, null],
    ];
    for (const [url, status, loc] of cases) {
      const r = await server.getJson<{ detail: unknown }>(url);
      assert.equal(r.status, status, url);
      if (loc) {
        assert.ok(Array.isArray(r.body.detail), url);
        assert.deepEqual((r.body.detail as Array<{ loc: unknown[] }>)[0]!.loc, loc, url);
      } else assert.equal(typeof r.body.detail, 'string', url);
    }
  });
});
