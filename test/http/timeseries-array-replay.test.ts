/**
 * /array time series over the GHRSST GAMSSA granules of ../shared/fixtures/cmr/data (titiler-cmr's
 * test_timeseries_statistics / _tilejson / _gif: 2024-10-11T00:00:00Z/2024-10-12T23:59:59Z, P1D),
 * with the collection record of the recorded test_timeseries_statistics exchange and the granule
 * record of test_xarray_part (plus its 2024-10-12 sibling, whose file is in the data folder) served
 * by the CMR stand-in. Oracles: each step's statistics equal the single-step /array/statistics of
 * that step; the GIF is decoded by Pillow (Debian python3-pil). Skipped without the shared fixtures.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { loadRecording, recordingsAvailable } from '../helpers/cmr-replay.ts';
import { startCmrStandin, type UmmItem } from '../helpers/cmr-standin.ts';
import { replayStack } from '../helpers/replay-stack.ts';
import { q } from '../helpers/test-server.ts';
import { boxFeature } from '../helpers/geojson.ts';

const available = recordingsAvailable();
const COLLECTION = 'C2036881735-POCLOUD';
const TEMPORAL = '2024-10-11T00:00:00Z/2024-10-12T23:59:59Z';
const STEPS = ['2024-10-11T00:00:00+00:00/2024-10-11T23:59:59+00:00', '2024-10-12T00:00:00+00:00/2024-10-12T23:59:59+00:00'];
const BASE = `collection_concept_id=${COLLECTION}&variables=analysed_sst`;
// GAMSSA's single-valued time is squeezed away (a sel on it is a 400, as in xarray): the template is only checked in tile URLs.
const SEL = `sel=${q('time=nearest::{datetime}')}`;
const SERIES = `${BASE}&temporal=${q(TEMPORAL)}&step=P1D`;
const ARCTIC = [-20.799, 75.011, 14.483, 83.559];
const BOX = [-10, 30, 10, 50];

const feature = boxFeature;

function granules(dataHost: string): UmmItem[] {
  const part = loadRecording('test_xarray_backend/test_xarray_part').at(-1)!.response.body as { items: UmmItem[] };
  const first = JSON.parse(JSON.stringify(part.items[0]).replaceAll('https://archive.podaac.earthdata.nasa.gov', dataHost)) as UmmItem;
  const second = JSON.parse(
    JSON.stringify(first)
      .replaceAll('20241011120000', '20241012120000')
      .replace('G3264876018-POCLOUD', 'G3264876019-POCLOUD')
      .replace('2024-10-12T00:00:00.000Z', '2024-10-13T00:00:00.000Z')
      .replace('2024-10-11T00:00:00.000Z', '2024-10-12T00:00:00.000Z'),
  ) as UmmItem;
  return [first, second];
}

describe('/array time series (GAMSSA, P1D over two days)', { skip: available ? false : 'shared CMR recordings not present' }, () => {
  const stack = replayStack((dataHost) => {
    const collections = (loadRecording('test_xarray_backend/test_timeseries_statistics')[0]!.response.body as { items: UmmItem[] }).items;
    return startCmrStandin({ granules: granules(dataHost), collections });
  });

  it('POST /array/timeseries/statistics: one entry per step, equal to that step’s /array/statistics', async () => {
    const r = await stack.server.post(`/array/timeseries/statistics?${SERIES}`, feature(ARCTIC));
    const body = (await r.json()) as { properties: { statistics: Record<string, unknown> } };
    assert.equal(r.status, 200, JSON.stringify(body).slice(0, 300));
    assert.deepEqual(Object.keys(body.properties.statistics), STEPS);
    for (const step of STEPS) {
      const single = await stack.server.post(`/array/statistics?${BASE}&temporal=${q(step)}`, feature(ARCTIC));
      assert.equal(single.status, 200);
      const one = (await single.json()) as { properties: { statistics: unknown } };
      assert.deepEqual(body.properties.statistics[step], one.properties.statistics, step);
    }
  });

  it('GET /array/timeseries/WebMercatorQuad/tilejson.json: step keys, each tile URL with its temporal and the sel template', async () => {
    const r = await stack.server.getJson<Record<string, { tiles: string[]; bounds: number[] }>>(
      `/array/timeseries/WebMercatorQuad/tilejson.json?${SERIES}&${SEL}`,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual(Object.keys(r.body), STEPS);
    for (const step of STEPS) {
      const url = new URL(r.body[step]!.tiles[0]!.replace('{z}', '0').replace('{x}', '0').replace('{y}', '0'));
      assert.match(url.pathname, /^\/array\/tiles\/WebMercatorQuad\/0\/0\/0/);
      assert.deepEqual(url.searchParams.getAll('temporal'), [step]);
      assert.deepEqual(url.searchParams.getAll('sel'), ['time=nearest::{datetime}']);
      assert.equal(url.searchParams.get('step'), null);
      url.searchParams.delete('sel');
      const tile = await fetch(url);
      assert.equal(tile.status, 200, await tile.clone().text());
    }
  });

  it('GET /array/timeseries/bbox/…/64x48.gif: two frames of 64×48 (Pillow)', async () => {
    const r = await stack.server.get(`/array/timeseries/bbox/${BOX.join(',')}/64x48.gif?${SERIES}&rescale=270,310&fps=4`);
    const body = Buffer.from(await r.arrayBuffer());
    assert.equal(r.status, 200, body.toString().slice(0, 300));
    assert.equal(r.headers.get('content-type'), 'image/gif');
    const info = pillow(body);
    assert.deepEqual(info, { frames: 2, size: [64, 48], durations: [250, 250] });
  });

  it('unsized GIF frames keep the size of the single-step /array/bbox image', async () => {
    const r = await stack.server.get(`/array/timeseries/bbox/${BOX.join(',')}.gif?${SERIES}&rescale=270,310`);
    const body = Buffer.from(await r.arrayBuffer());
    assert.equal(r.status, 200, body.toString().slice(0, 300));
    const png = Buffer.from(await (await stack.server.get(`/array/bbox/${BOX.join(',')}.png?${BASE}&temporal=${q(STEPS[0]!)}&rescale=270,310`)).arrayBuffer());
    assert.deepEqual(pillow(body).size, [png.readUInt32BE(16), png.readUInt32BE(20)]);
  });

  it('each step reads with its own {datetime}: a sel on the squeezed time dimension fails with the step value in the 400', async () => {
    const r = await stack.server.post(`/array/timeseries/statistics?${SERIES}&${SEL}`, feature(ARCTIC));
    const body = (await r.json()) as { detail: string };
    assert.equal(r.status, 400);
    assert.match(body.detail, /sel time=2024-10-1[12]T00:00:00\+00:00: dimension 'time' of 'analysed_sst' has a single value/);
  });

  it('legacy /timeseries/statistics?backend=xarray lands on /array/timeseries/statistics', async () => {
    const r = await stack.server.post(`/timeseries/statistics?${SERIES}&backend=xarray`, feature(ARCTIC));
    const body = (await r.json()) as { properties: { statistics: Record<string, unknown> } };
    assert.equal(r.status, 200, JSON.stringify(body).slice(0, 300));
    assert.deepEqual(Object.keys(body.properties.statistics), STEPS);
    const t = await stack.server.getJson<Record<string, unknown>>(`/timeseries/WebMercatorQuad/tilejson.json?${SERIES}&backend=xarray`);
    assert.equal(t.status, 200);
    assert.deepEqual(Object.keys(t.body), STEPS);
    const g = await stack.server.get(`/timeseries/bbox/${BOX.join(',')}/32x32.gif?${SERIES}&backend=xarray&rescale=270,310`);
    assert.equal(g.status, 200);
    assert.ok(new URL(g.url).pathname.startsWith('/array/timeseries/bbox/'));
    assert.equal(pillow(Buffer.from(await g.arrayBuffer())).frames, 2);
  });
});

function pillow(gif: Buffer): { frames: number; size: number[]; durations: number[] } {
  const script = [
    'import io, json, sys',
    'from PIL import Image',
    'im = Image.open(io.BytesIO(sys.stdin.buffer.read()))',
    'd = []',
    'for i in range(im.n_frames):',
    '    im.seek(i); d.append(im.info.get("duration"))',
    'print(json.dumps({"frames": im.n_frames, "size": list(im.size), "durations": d}))',
  ].join('\n');
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: gif }).toString()) as { frames: number; size: number[]; durations: number[] };
}
