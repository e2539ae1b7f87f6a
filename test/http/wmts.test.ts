/**
 * GET /cog/WMTSCapabilities.xml (TiTiler §2.3, §3.8, §13.1 pins) on our fixtures.
 * Oracles: an XML well-formedness check (below), the tile set endpoint's limits, the
 * /tileMatrixSets documents, GDAL's WGS84 bounds (expected.json), and the tiles themselves.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { fixture, q, REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

// ---------------------------------------------------------------------------------------------
// A small, strict XML reader. Hand-written because the project has no XML parser dependency (the
// only one in node_modules is a transitive dependency of a dev tool); it checks what a capabilities
// document can get wrong: balanced tags, quoted and unique attributes, entities, no stray `<` or
// `&`, one root, declared namespace prefixes. No DTDs (a capabilities document has none).

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

function decodeEntities(s: string, where: string): string {
  const stray = s.replace(ENTITY, '').indexOf('&');
  if (stray >= 0) throw new Error(`unescaped & in ${where}: ${JSON.stringify(s)}`);
  return s.replace(ENTITY, (e) => {
    const named: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };
    if (named[e]) return named[e]!;
    return String.fromCodePoint(e[2] === 'x' ? parseInt(e.slice(3, -1), 16) : parseInt(e.slice(2, -1), 10));
  });
}

function parseXml(xml: string): XmlElement {
  let i = 0;
  const stack: Array<{ el: XmlElement; ns: Set<string> }> = [];
  let root: XmlElement | null = null;
  const fail = (msg: string): never => {
    throw new Error(`${msg} at offset ${i}: ${JSON.stringify(xml.slice(Math.max(0, i - 60), i + 60))}`);
  };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) fail('unterminated XML declaration');
    if (!/^<\?xml version="1\.0"( encoding="[\w-]+")?( standalone="(yes|no)")?\s*\?>$/.test(xml.slice(0, end + 2))) fail('bad XML declaration');
    i = end + 2;
  }
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (text.includes(']]>')) fail('stray ]]>');
    if (stack.length === 0) {
      if (text.trim() !== '') fail('text outside the root element');
    } else stack[stack.length - 1]!.el.text += decodeEntities(text, 'text');
    if (lt < 0) break;
    i = lt;
    if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      if (end < 0 || xml.slice(i + 4, end).includes('--')) fail('bad comment');
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', i)) {
      if (stack.length === 0) fail('CDATA outside the root');
      const end = xml.indexOf(']]>', i);
      if (end < 0) fail('unterminated CDATA');
      stack[stack.length - 1]!.el.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('<?', i)) {
      const end = xml.indexOf('?>', i);
      if (end < 0 || /^<\?xml\b/i.test(xml.slice(i))) fail('bad processing instruction');
      i = end + 2;
    } else if (xml.startsWith('<!', i)) {
      fail('unexpected declaration');
    } else if (xml.startsWith('</', i)) {
      const end = xml.indexOf('>', i);
      if (end < 0) fail('unterminated end tag');
      const name = xml.slice(i + 2, end).trim();
      const open = stack.pop();
      if (!open || open.el.name !== name) fail(`end tag </${name}> does not close <${open?.el.name}>`);
      i = end + 1;
    } else {
      // start tag: name, attributes with quoted values, optional '/'
      const m = /^<([^\s/>]+)/.exec(xml.slice(i, i + 200));
      if (!m || !NAME.test(m[1]!)) fail('bad element name');
      const name = m![1]!;
      i += m![0].length;
      const attrs: Record<string, string> = {};
      for (;;) {
        const ws = /^\s*/.exec(xml.slice(i))![0].length;
        i += ws;
        if (xml.startsWith('/>', i) || xml[i] === '>') break;
        if (ws === 0) fail('attributes must be separated by white space');
        const a = /^([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(xml.slice(i));
        if (!a || !NAME.test(a[1]!)) fail('bad attribute');
        const value = a![2] ?? a![3]!;
        if (value.includes('<')) fail('< in an attribute value');
        if (a![1]! in attrs) fail(`duplicate attribute ${a![1]}`);
        attrs[a![1]!] = decodeEntities(value, `attribute ${a![1]}`);
        i += a![0].length;
      }
      const selfClosing = xml.startsWith('/>', i);
      i += selfClosing ? 2 : 1;
      const el: XmlElement = { name, attrs, children: [], text: '' };
      // namespace prefixes in scope
      const ns = new Set(stack.length ? stack[stack.length - 1]!.ns : ['xml']);
      for (const k of Object.keys(attrs)) if (k.startsWith('xmlns:')) ns.add(k.slice(6));
      for (const n of [name, ...Object.keys(attrs).filter((k) => !k.startsWith('xmlns'))]) {
        const prefix = n.includes(':') ? n.split(':')[0]! : null;
        if (prefix && !ns.has(prefix)) fail(`undeclared namespace prefix ${prefix}`);
      }
      if (stack.length) stack[stack.length - 1]!.el.children.push(el);
      else if (root) fail('a second root element');
      else root = el;
      if (!selfClosing) stack.push({ el, ns });
    }
  }
  if (stack.length) fail(`unclosed <${stack[stack.length - 1]!.el.name}>`);
  if (!root) fail('no root element');
  return root!;
}

const kids = (el: XmlElement, name: string): XmlElement[] => el.children.filter((c) => c.name === name);
const kid = (el: XmlElement, name: string): XmlElement => {
  const k = kids(el, name);
  assert.equal(k.length, 1, `one <${name}> in <${el.name}>, found ${k.length}`);
  return k[0]!;
};
const textOf = (el: XmlElement, name: string): string => kid(el, name).text;

// ---------------------------------------------------------------------------------------------

/** The 13 TMS ids in TiTiler's list order (§11.1: sorted file names, byte order). */
const TMS_IDS = [
  'CDB1GlobalGrid',
  'CanadianNAD83_LCC',
  'EuropeanETRS89_LAEAQuad',
  'GNOSISGlobalGrid',
  'LINZAntarticaMapTilegrid',
  'NZTM2000Quad',
  'UPSAntarcticWGS84Quad',
  'UPSArcticWGS84Quad',
  'UTM31WGS84Quad',
  'WGS1984Quad',
  'WebMercatorQuad',
  'WorldCRS84Quad',
  'WorldMercatorWGS84Quad',
];

const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as {
  files: Record<string, { wgs84_bounds: [number, number, number, number] }>;
};
const ds = (name: string): string => fixture('datasets', name);
const DEMO = path.join(REPO, 'demo', 'rastile-demo.tif');

interface Limits {
  tileMatrix: string;
  minTileRow: number;
  maxTileRow: number;
  minTileCol: number;
  maxTileCol: number;
}

interface Capabilities {
  raw: string;
  root: XmlElement;
  layers: XmlElement[];
  sets: XmlElement[];
}

const layerLimits = (layer: XmlElement): Limits[] =>
  kids(kid(kid(layer, 'TileMatrixSetLink'), 'TileMatrixSetLimits'), 'TileMatrixLimits').map((l) => ({
    tileMatrix: textOf(l, 'TileMatrix'),
    minTileRow: Number(textOf(l, 'MinTileRow')),
    maxTileRow: Number(textOf(l, 'MaxTileRow')),
    minTileCol: Number(textOf(l, 'MinTileCol')),
    maxTileCol: Number(textOf(l, 'MaxTileCol')),
  }));

const template = (layer: XmlElement): string => kid(layer, 'ResourceURL').attrs['template']!;

describe('/cog/WMTSCapabilities.xml', () => {
  let server: TestServer;
  const docs = new Map<string, Promise<Capabilities>>();

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  /** Fetches, checks the response and well-formedness, parses (cached per query). */
  function capabilities(query: string): Promise<Capabilities> {
    let hit = docs.get(query);
    if (!hit) {
      hit = (async () => {
        const r = await server.get(`/cog/WMTSCapabilities.xml?${query}`);
        const raw = await r.text();
        assert.equal(r.status, 200, raw.slice(0, 500));
        assert.equal(r.headers.get('content-type'), 'application/xml');
        assert.equal(r.headers.get('cache-control'), 'private, max-age=3600');
        const root = parseXml(raw);
        const contents = kid(root, 'Contents');
        return { raw, root, layers: kids(contents, 'Layer'), sets: kids(contents, 'TileMatrixSet') };
      })();
      docs.set(query, hit);
    }
    return hit;
  }

  it('is a well-formed WMTS 1.0.0 document: namespaces, service sections, request URL', async () => {
    const query = `url=${q(DEMO)}&rescale=0,3000&colormap_name=terrain`;
    const c = await capabilities(query);
    assert.equal(c.root.name, 'Capabilities');
    assert.equal(c.root.attrs['version'], '1.0.0');
    assert.equal(c.root.attrs['xmlns'], 'http://www.opengis.net/wmts/1.0');
    assert.equal(c.root.attrs['xmlns:ows'], 'http://www.opengis.net/ows/1.1');
    assert.equal(c.root.attrs['xmlns:xlink'], 'http://www.w3.org/1999/xlink');
    for (const ns of ['xmlns:xsi', 'xmlns:gml']) assert.ok(c.root.attrs[ns], ns);
    const si = kid(c.root, 'ows:ServiceIdentification');
    assert.equal(textOf(si, 'ows:ServiceType'), 'OGC WMTS');
    assert.equal(textOf(si, 'ows:ServiceTypeVersion'), '1.0.0');
    assert.ok(kid(c.root, 'ows:ServiceProvider'));
    // GetCapabilities and GetTile, RESTful, pointing at the request URL (XML-escaped in the raw text)
    const requestUrl = `${server.url}/cog/WMTSCapabilities.xml?${query}`;
    const ops = kids(kid(c.root, 'ows:OperationsMetadata'), 'ows:Operation');
    assert.deepEqual(
      ops.map((o) => o.attrs['name']),
      ['GetCapabilities', 'GetTile'],
    );
    for (const o of ops) {
      const get = kid(kid(kid(o, 'ows:DCP'), 'ows:HTTP'), 'ows:Get');
      assert.equal(get.attrs['xlink:href'], requestUrl);
      assert.equal(textOf(kid(kid(get, 'ows:Constraint'), 'ows:AllowedValues'), 'ows:Value'), 'RESTful');
    }
    assert.ok(c.raw.includes(`${server.url}/cog/WMTSCapabilities.xml?url=${q(DEMO)}&amp;rescale=0,3000&amp;colormap_name=terrain`));
    assert.equal(kid(c.root, 'ServiceMetadataURL').attrs['xlink:href'], requestUrl);
    // layers first, then the tile matrix sets
    const contents = kid(c.root, 'Contents');
    const order = contents.children.map((e) => e.name);
    assert.deepEqual(order, [...Array(13).fill('Layer'), ...Array(13).fill('TileMatrixSet')]);
  });

  it('13 layers `{url}_{tms}_default`, WGS84 bounds (GDAL), PNG, limits = the tile set limits', async () => {
    for (const name of ['uint16_nodata_utm.tif', 'int16_scale_laea.tif', 'rgba_alpha_3857.tif', 'float32_nan_4326.tif']) {
      const c = await capabilities(`url=${q(ds(name))}`);
      assert.equal(c.layers.length, 13);
      for (const [k, layer] of c.layers.entries()) {
        const tms = TMS_IDS[k]!;
        const id = `${ds(name)}_${tms}_default`;
        assert.equal(textOf(layer, 'ows:Identifier'), id);
        assert.equal(textOf(layer, 'ows:Title'), id);
        const bbox = kid(layer, 'ows:WGS84BoundingBox');
        assert.equal(bbox.attrs['crs'], 'urn:ogc:def:crs:OGC:2:84');
        const corners = [...textOf(bbox, 'ows:LowerCorner').split(' '), ...textOf(bbox, 'ows:UpperCorner').split(' ')].map(Number);
        expected.files[name]!.wgs84_bounds.forEach((v, i) =>
          assert.ok(Math.abs(corners[i]! - v) < 1e-7, `${name} ${tms} bbox ${corners} vs ${expected.files[name]!.wgs84_bounds}`),
        );
        const style = kid(layer, 'Style');
        assert.equal(style.attrs['isDefault'], 'true');
        assert.equal(textOf(style, 'ows:Identifier'), 'default');
        assert.equal(textOf(layer, 'Format'), 'image/png');
        assert.equal(textOf(kid(layer, 'TileMatrixSetLink'), 'TileMatrixSet'), tms);
        const ts = await server.getJson<{ tileMatrixSetLimits: Limits[] }>(`/cog/tiles/${tms}?url=${q(ds(name))}`);
        assert.equal(ts.status, 200);
        assert.deepEqual(layerLimits(layer), ts.body.tileMatrixSetLimits, `${name} ${tms}`);
      }
    }
  });

  it('zooms=*::0,1 and zooms=WebMercatorQuad::0,1 override the zoom range (§3.8 pins)', async () => {
    const file = ds('rgb_uint8_utm.tif');
    const dflt = await capabilities(`url=${q(file)}`);
    const all = await capabilities(`url=${q(file)}&zooms=${q('*::0,1')}`);
    for (const [k, tms] of TMS_IDS.entries()) {
      const ts = await server.getJson<{ tileMatrixSetLimits: Limits[] }>(`/cog/tiles/${tms}?url=${q(file)}&minzoom=0&maxzoom=1`);
      assert.deepEqual(layerLimits(all.layers[k]!), ts.body.tileMatrixSetLimits, tms);
      // zoom 0 only where the TMS defines it (UTM31WGS84Quad starts at 1)
      const first = Number((await server.getJson<{ tileMatrices: Array<{ id: string }> }>(`/tileMatrixSets/${tms}`)).body.tileMatrices[0]!.id);
      assert.deepEqual(
        layerLimits(all.layers[k]!).map((l) => l.tileMatrix),
        ['0', '1'].filter((z) => Number(z) >= first),
        tms,
      );
    }
    const wmq = TMS_IDS.indexOf('WebMercatorQuad'),
      crs84 = TMS_IDS.indexOf('WorldCRS84Quad');
    const one = await capabilities(`url=${q(file)}&zooms=${q('WebMercatorQuad::0,1')}`);
    assert.deepEqual(
      layerLimits(one.layers[wmq]!).map((l) => l.tileMatrix),
      ['0', '1'],
    );
    assert.deepEqual(layerLimits(one.layers[crs84]!), layerLimits(dflt.layers[crs84]!));
    // the whole-world zoom 0/1 tiles of WebMercatorQuad (1×1 and 2×2 matrices), this dataset in the north-east quadrant
    assert.deepEqual(layerLimits(one.layers[wmq]!), [
      { tileMatrix: '0', minTileRow: 0, maxTileRow: 0, minTileCol: 0, maxTileCol: 0 },
      { tileMatrix: '1', minTileRow: 0, maxTileRow: 0, minTileCol: 1, maxTileCol: 1 },
    ]);
    // several: a TMS key wins over `*`
    const two = await capabilities(`url=${q(file)}&zooms=${q('*::2,2')}&zooms=${q('WorldCRS84Quad::3,4')}`);
    assert.deepEqual(
      layerLimits(two.layers[wmq]!).map((l) => l.tileMatrix),
      ['2'],
    );
    assert.deepEqual(
      layerLimits(two.layers[crs84]!).map((l) => l.tileMatrix),
      ['3', '4'],
    );
    for (const bad of ['WebMercatorQuad:0,1', '*::a,b', 'WebMercatorQuad::0', 'Web-Mercator::0,1', '::0,1']) {
      const r = await server.getJson<{ detail: Array<{ loc: unknown[] }> }>(`/cog/WMTSCapabilities.xml?url=${q(file)}&zooms=${q(bad)}`);
      assert.equal(r.status, 422, bad);
      assert.deepEqual(r.body.detail[0]!.loc, ['query', 'zooms', 0], bad);
    }
  });

  it('ResourceURL template: literal placeholders, query carried (&amp; in the XML), and it serves the tiles', async () => {
    const file = ds('uint16_nodata_utm.tif');
    const c = await capabilities(`url=${q(file)}&rescale=0,1000&colormap_name=viridis&bidx=1`);
    const wmq = c.layers[TMS_IDS.indexOf('WebMercatorQuad')]!;
    const res = kid(wmq, 'ResourceURL');
    assert.equal(res.attrs['format'], 'image/png');
    assert.equal(res.attrs['resourceType'], 'tile');
    const want = `${server.url}/cog/tiles/WebMercatorQuad/{TileMatrix}/{TileCol}/{TileRow}.png?url=${q(file)}&rescale=0%2C1000&colormap_name=viridis&bidx=1`;
    assert.equal(template(wmq), want);
    assert.ok(c.raw.includes(`template="${want.replace(/&/g, '&amp;')}"`), 'the & of the query are escaped in the raw XML');
    // §13.1 pin shape: …/cog/tiles/WebMercatorQuad/{TileMatrix}/{TileCol}/{TileRow}.png?url=
    assert.ok(c.raw.includes(`${server.url}/cog/tiles/WebMercatorQuad/{TileMatrix}/{TileCol}/{TileRow}.png?url=`));
    for (const [k, tms] of TMS_IDS.entries()) {
      assert.ok(template(c.layers[k]!).startsWith(`${server.url}/cog/tiles/${tms}/{TileMatrix}/{TileCol}/{TileRow}.png?url=`), tms);
    }
    // fill the template with the middle tile of each limit entry, in TMSs that cover this dataset
    // (in Pennsylvania): PNG tiles of the TMS tile size
    for (const tms of ['WebMercatorQuad', 'WorldCRS84Quad', 'WGS1984Quad', 'WorldMercatorWGS84Quad']) {
      const layer = c.layers[TMS_IDS.indexOf(tms)]!;
      for (const l of layerLimits(layer)) {
        const col = Math.floor((l.minTileCol + l.maxTileCol) / 2),
          row = Math.floor((l.minTileRow + l.maxTileRow) / 2);
        const url = template(layer).replace('{TileMatrix}', l.tileMatrix).replace('{TileCol}', String(col)).replace('{TileRow}', String(row));
        const r = await fetch(url);
        assert.equal(r.status, 200, url);
        assert.equal(r.headers.get('content-type'), 'image/png');
        const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
        assert.deepEqual([meta.width, meta.height], [256, 256], url);
      }
    }
    // tile_format picks extension and media type
    for (const [fmt, media] of [
      ['jpeg', 'image/jpeg'],
      ['webp', 'image/webp'],
      ['tif', 'image/tiff; application=geotiff'],
    ] as const) {
      const d = await capabilities(`url=${q(file)}&tile_format=${fmt}`);
      const layer = d.layers[TMS_IDS.indexOf('WebMercatorQuad')]!;
      assert.equal(textOf(layer, 'Format'), media);
      assert.equal(kid(layer, 'ResourceURL').attrs['format'], media);
      assert.equal(template(layer), `${server.url}/cog/tiles/WebMercatorQuad/{TileMatrix}/{TileCol}/{TileRow}.${fmt}?url=${q(file)}`);
    }
  });

  it('tilesize cannot be set: accepted in the query but not passed to the tiles; WMTS keys are not copied either', async () => {
    const file = ds('rgb_uint8_utm.tif');
    const plain = await capabilities(`url=${q(file)}`);
    const c = await capabilities(
      `url=${q(file)}&tilesize=512&SERVICE=WMTS&Request=GetCapabilities&acceptversions=1.0.0&use_epsg=false&tile_format=png&zooms=${q('UTM31WGS84Quad::1,2')}`,
    );
    for (const [k, layer] of c.layers.entries()) {
      const keys = [...new URLSearchParams(template(layer).split('?')[1]!).keys()].map((key) => key.toLowerCase());
      for (const key of ['tilesize', 'service', 'request', 'acceptversions', 'use_epsg', 'tile_format', 'zooms'])
        assert.ok(!keys.includes(key), template(layer));
      assert.equal(template(layer), template(plain.layers[k]!));
    }
  });

  it('SupportedCRS: the TMS document CRS string; EPSG:{code} with use_epsg=true (EPSG:None for CRS84)', async () => {
    const file = ds('rgb_uint8_utm.tif');
    const c = await capabilities(`url=${q(file)}`);
    const e = await capabilities(`url=${q(file)}&use_epsg=true`);
    // §13.1 pins
    assert.ok(c.raw.includes('<ows:SupportedCRS>http://www.opengis.net/def/crs/EPSG/0/3857</ows:SupportedCRS>'));
    assert.ok(e.raw.includes('<ows:SupportedCRS>EPSG:3857</ows:SupportedCRS>'));
    assert.deepEqual(
      c.sets.map((s) => textOf(s, 'ows:Identifier')),
      TMS_IDS,
    );
    for (const [k, tms] of TMS_IDS.entries()) {
      const doc = await server.getJson<{ crs: string }>(`/tileMatrixSets/${tms}`);
      assert.equal(textOf(c.sets[k]!, 'ows:SupportedCRS'), doc.body.crs, tms);
      const code = /EPSG(?:\/0\/|::)(\d+)$/.exec(doc.body.crs)?.[1] ?? 'None';
      assert.equal(textOf(e.sets[k]!, 'ows:SupportedCRS'), `EPSG:${code}`, tms);
    }
    assert.equal(textOf(e.sets[TMS_IDS.indexOf('WorldCRS84Quad')]!, 'ows:SupportedCRS'), 'EPSG:None');
    assert.equal(textOf(c.sets[TMS_IDS.indexOf('NZTM2000Quad')]!, 'ows:SupportedCRS'), 'urn:ogc:def:crs:EPSG::2193');
  });

  it('every TileMatrixSet with all its matrices, as /tileMatrixSets/{id} defines them', async () => {
    const c = await capabilities(`url=${q(ds('rgb_uint8_utm.tif'))}`);
    for (const [k, tms] of TMS_IDS.entries()) {
      const doc = await server.getJson<{
        tileMatrices: Array<{
          id: string;
          scaleDenominator: number;
          pointOfOrigin: number[];
          tileWidth: number;
          tileHeight: number;
          matrixWidth: number;
          matrixHeight: number;
        }>;
      }>(`/tileMatrixSets/${tms}`);
      const matrices = kids(c.sets[k]!, 'TileMatrix');
      assert.equal(matrices.length, doc.body.tileMatrices.length, tms);
      for (const [j, m] of doc.body.tileMatrices.entries()) {
        const x = matrices[j]!;
        assert.equal(textOf(x, 'ows:Identifier'), m.id, tms);
        assert.equal(Number(textOf(x, 'ScaleDenominator')), m.scaleDenominator, `${tms}/${m.id}`);
        // as stored: latitude first for lat/lon TMSs
        assert.deepEqual(textOf(x, 'TopLeftCorner').split(' ').map(Number), m.pointOfOrigin, `${tms}/${m.id}`);
        assert.equal(Number(textOf(x, 'TileWidth')), m.tileWidth);
        assert.equal(Number(textOf(x, 'TileHeight')), m.tileHeight);
        assert.equal(Number(textOf(x, 'MatrixWidth')), m.matrixWidth);
        assert.equal(Number(textOf(x, 'MatrixHeight')), m.matrixHeight);
      }
    }
  });

  it('XML escaping: a url with & < > " \' in it stays well-formed and round-trips', async () => {
    const remote: RangeServer = await startRangeServer({ root: fixture('datasets') });
    try {
      const url = `${remote.url}/rgb_uint8_utm.tif?a=1&b=<2>&c="3"&d='4'`;
      const r = await server.get(`/cog/WMTSCapabilities.xml?url=${q(url)}&color_formula=${q('Gamma RGB 3')}`);
      assert.equal(r.status, 200);
      const raw = await r.text();
      const root = parseXml(raw);
      const layers = kids(kid(root, 'Contents'), 'Layer');
      assert.equal(textOf(layers[0]!, 'ows:Identifier'), `${url}_CDB1GlobalGrid_default`);
      const t = template(layers[TMS_IDS.indexOf('WebMercatorQuad')]!);
      const params = new URL(t.replace(/[{}]/g, '')).searchParams;
      assert.equal(params.get('url'), url);
      assert.equal(params.get('color_formula'), 'Gamma RGB 3');
      assert.ok(t.includes('color_formula=Gamma+RGB+3'), t);
    } finally {
      await remote.close();
    }
  });

  it('the checker itself rejects broken XML', () => {
    for (const bad of ['<a><b></a></b>', '<a x="1" x="2"/>', '<a>&</a>', '<a x=1/>', '<a/><b/>', '<a>x < y</a>', '<p:a/>', '<a>&foo;</a>', '<a>']) {
      assert.throws(() => parseXml(bad), Error, bad);
    }
    assert.deepEqual(parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a xmlns:p="u" k="&amp;&lt;"><p:b>t&#38;</p:b></a>\n').children[0]!.text, 't&');
  });

  it('errors: bad render parameters 422 (FastAPI shape), missing url 422, missing file 404', async () => {
    const file = q(ds('rgb_uint8_utm.tif'));
    const cases: Array<[string, number, unknown[] | null]> = [
      [`url=${file}&rescale=0`, 422, ['query', 'rescale', 0]],
      [`url=${file}&colormap_name=nope`, 422, ['query', 'colormap_name']],
      [`url=${file}&tile_format=gif`, 422, ['query', 'tile_format']],
      [`url=${file}&use_epsg=maybe`, 422, ['query', 'use_epsg']],
      [`url=${file}&algorithm=hillshade&algorithm_params=notjson`, 422, ['query', 'algorithm_params']],
      [``, 422, ['query', 'url']],
      [`url=${q(ds('missing.tif'))}`, 404, null],
    ];
    for (const [query, status, loc] of cases) {
      const r = await server.getJson<{ detail: unknown }>(`/cog/WMTSCapabilities.xml?${query}`);
      assert.equal(r.status, status, query);
      if (loc) assert.deepEqual((r.body.detail as Array<{ loc: unknown[] }>)[0]!.loc, loc, query);
    }
  });
});
