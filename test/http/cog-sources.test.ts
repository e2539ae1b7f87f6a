/**
 * Datasets over real byte sources (a Range-honouring HTTP server and an S3 stand-in on
 * 127.0.0.1) and every way a dataset can be missing, forbidden or broken: clear JSON errors,
 * never a crash or a hang.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startRangeServer } from '../helpers/http-range-server.ts';
import { startS3Standin } from '../helpers/s3-standin.ts';
import { FIXTURES, fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';

const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as {
  files: Record<string, { info: unknown; statistics_default: { stats: Record<string, Record<string, unknown>> } }>;
};

async function detail(server: TestServer, path: string): Promise<{ status: number; detail: unknown; type: string }> {
  const r = await server.get(path);
  const body = (await r.json()) as { detail: unknown };
  return { status: r.status, detail: body.detail, type: r.headers.get('content-type') ?? '' };
}

describe('missing, forbidden and broken datasets', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('a missing file is a 404 with a detail', async () => {
    const r = await detail(server, `/cog/info?url=${q(fixture('nope.tif'))}`);
    assert.equal(r.status, 404);
    assert.equal(typeof r.detail, 'string');
    assert.match(r.type, /application\/json/);
  });

  it('files outside the local roots are 403', async () => {
    for (const p of ['/etc/passwd', `${FIXTURES}/../../../../etc/hosts`, 'file:///etc/hostname']) {
      const r = await detail(server, `/cog/info?url=${q(p)}`);
      assert.equal(r.status, 403, p);
    }
  });

  it('unsupported schemes are refused', async () => {
    const r = await detail(server, `/cog/info?url=${q('ftp://example.com/a.tif')}`);
    assert.ok(r.status >= 400 && r.status < 500);
  });

  it('not a TIFF → 400', async () => {
    const r = await detail(server, `/cog/info?url=${q(fixture('tiff', 'bad_not_a_tiff.tif'))}`);
    assert.equal(r.status, 400);
    assert.equal(typeof r.detail, 'string');
  });

  it('a corrupt tile errors when it is needed, and the process stays up', async () => {
    const r = await detail(server, `/cog/statistics?url=${q(fixture('tiff', 'bad_corrupt_tile.tif'))}&max_size=0`);
    assert.equal(r.status, 400, JSON.stringify(r.detail));
    const h = await server.get('/healthz');
    assert.equal(h.status, 200);
  });

  it('a truncated file errors when the missing bytes are needed', async () => {
    const r = await detail(server, `/cog/statistics?url=${q(fixture('tiff', 'bad_truncated.tif'))}&max_size=0`);
    assert.equal(r.status, 400, JSON.stringify(r.detail));
  });

  it('an unsupported compression is a clear 400', async () => {
    const r = await detail(server, `/cog/statistics?url=${q(fixture('tiff', 'bad_lzma_unsupported.tif'))}`);
    assert.equal(r.status, 400);
    assert.match(String(r.detail), /compression/i);
  });

  it('a header claiming huge blocks cannot allocate them', async () => {
    const r = await detail(server, `/cog/statistics?url=${q(fixture('tiff', 'bad_huge_tiles.tif'))}`);
    assert.equal(r.status, 400, JSON.stringify(r.detail));
  });

  it('a cyclic IFD chain does not hang', async () => {
    const r = await detail(server, `/cog/info?url=${q(fixture('tiff', 'bad_cyclic_ifd.tif'))}`);
    assert.ok(r.status === 200 || r.status === 400, String(r.status));
  });

  it('a non-georeferenced TIFF is a 400 for endpoints that need a CRS', async () => {
    const r = await detail(server, `/cog/info?url=${q(fixture('tiff', 'gtiff_nogeo.tif'))}`);
    assert.equal(r.status, 400);
  });

  it('reads beyond the configured pixel budget are refused', async () => {
    const small = await startTestServer((c) => {
      c.limits.maxReadPixels = 1000;
    });
    try {
      const r = await detail(small, `/cog/statistics?url=${q(fixture('datasets', 'uint16_nodata_utm.tif'))}&max_size=0`);
      assert.equal(r.status, 400);
      assert.match(String(r.detail), /limit/);
    } finally {
      await small.close();
    }
  });
});

describe('datasets over HTTP range requests', () => {
  let server: TestServer;
  let http: Awaited<ReturnType<typeof startRangeServer>>;
  before(async () => {
    server = await startTestServer();
    http = await startRangeServer({ root: fixture('datasets') });
  });
  after(async () => {
    await server.close();
    await http.close();
  });

  it('info and statistics equal the local reads, fetching only ranges', async () => {
    const name = 'uint16_nodata_utm.tif';
    const info = await server.getJson(`/cog/info?url=${q(`${http.url}/${name}`)}`);
    assert.equal(info.status, 200);
    assert.deepEqual(info.body, expected.files[name].info);
    const stats = await server.getJson<Record<string, Record<string, unknown>>>(`/cog/statistics?url=${q(`${http.url}/${name}`)}`);
    assert.equal(stats.status, 200);
    assert.deepEqual(stats.body['b1']['histogram'], expected.files[name].statistics_default.stats['b1']['histogram']);
    const reqs = http.requestsFor(`/${name}`);
    assert.ok(reqs.length > 0);
    assert.ok(
      reqs.every((r) => r.range !== undefined),
      'every request is a Range request',
    );
  });

  it('a server that ignores Range still works', async () => {
    const plain = await startRangeServer({ root: fixture('datasets'), ignoreRange: true });
    try {
      const info = await server.getJson(`/cog/info?url=${q(`${plain.url}/palette_3413.tif`)}`);
      assert.equal(info.status, 200);
      assert.deepEqual(info.body, expected.files['palette_3413.tif'].info);
    } finally {
      await plain.close();
    }
  });

  it('transient 503s are retried', async () => {
    const flaky = await startRangeServer({ root: fixture('datasets'), failFirst: 2 });
    try {
      const info = await server.getJson(`/cog/info?url=${q(`${flaky.url}/palette_3413.tif`)}`);
      assert.equal(info.status, 200);
    } finally {
      await flaky.close();
    }
  });

  it('remote 404 → 404, 403 → 403, persistent 5xx → 502', async () => {
    const failing = await startRangeServer({
      root: fixture('datasets'),
      status: (p) => (p.includes('forbidden') ? 403 : p.includes('broken') ? 500 : undefined),
    });
    try {
      assert.equal((await detail(server, `/cog/info?url=${q(`${failing.url}/missing.tif`)}`)).status, 404);
      assert.equal((await detail(server, `/cog/info?url=${q(`${failing.url}/forbidden.tif`)}`)).status, 403);
      assert.equal((await detail(server, `/cog/info?url=${q(`${failing.url}/broken.tif`)}`)).status, 502);
    } finally {
      await failing.close();
    }
  });

  it('private addresses are refused by default', async () => {
    const strict = await startTestServer((c) => {
      c.sources.allowPrivateHosts = false;
    });
    try {
      const r = await detail(strict, `/cog/info?url=${q(`${http.url}/palette_3413.tif`)}`);
      assert.equal(r.status, 403);
      const meta = await detail(strict, `/cog/info?url=${q('http://169.254.169.254/latest/meta-data/x.tif')}`);
      assert.equal(meta.status, 403);
    } finally {
      await strict.close();
    }
  });
});

describe('datasets over S3 (signed range GETs against a local stand-in)', () => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Standin>>;
  before(async () => {
    s3 = await startS3Standin({
      buckets: { data: { 'cogs/palette.tif': readFileSync(fixture('datasets', 'palette_3413.tif')) } },
      accounts: [{ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test-key' }],
      region: 'us-east-1',
    });
    server = await startTestServer((c) => {
      c.sources.s3 = { region: 'us-east-1', endpoint: s3.url, accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test-key' };
    });
  });
  after(async () => {
    await server.close();
    await s3.close();
  });

  it('reads info through SigV4-signed requests', async () => {
    const info = await server.getJson(`/cog/info?url=${q('s3://data/cogs/palette.tif')}`);
    assert.equal(info.status, 200, JSON.stringify(info.body));
    assert.deepEqual(info.body, expected.files['palette_3413.tif'].info);
    assert.ok(s3.requests.length > 0 && s3.requests.every((r) => r.outcome === 'ok'));
  });

  it('a missing key is a 404', async () => {
    const r = await detail(server, `/cog/info?url=${q('s3://data/cogs/none.tif')}`);
    assert.equal(r.status, 404);
  });

  it('wrong credentials are a 403', async () => {
    const bad = await startTestServer((c) => {
      c.sources.s3 = { region: 'us-east-1', endpoint: s3.url, accessKeyId: 'AKIDTEST', secretAccessKey: 'wrong' };
    });
    try {
      const r = await detail(bad, `/cog/info?url=${q('s3://data/cogs/palette.tif')}`);
      assert.equal(r.status, 403);
    } finally {
      await bad.close();
    }
  });
});
