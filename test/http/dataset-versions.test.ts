/**
 * A dataset changed in place is served from its new version, never stale and never mixed
 * (issue 9 §2): local overwrite in place and write-and-rename between requests, a loopback HTTP
 * server whose object changes (ETag, Last-Modified, no validator), the S3 stand-in, and a race
 * of tile requests against a file being replaced.
 *
 * The oracle for "the new version" is the same server's answer for a pristine copy of that file
 * at another path (test/fixtures/versions, made by scripts/fixtures/versions.py): what a fresh
 * server on the new file answers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, rename, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { startS3Standin, type S3Standin } from '../helpers/s3-standin.ts';
import { fixture, q, startTestServer, type TestServer } from '../helpers/test-server.ts';
import { makeTempTree, type TempTree } from '../sources/fixture-files.ts';

const NAMES = ['v1.tif', 'v2.tif', 'same_a.tif', 'same_b.tif'] as const;
type Name = (typeof NAMES)[number];
const bytesOf = (name: Name): Uint8Array => new Uint8Array(readFileSync(fixture('versions', name)));
const TILE = '/cog/tiles/WebMercatorQuad/10/544/361.png';
const OVERVIEW_TILE = '/cog/tiles/WebMercatorQuad/9/272/180.png';

interface Snapshot {
  info: unknown;
  tile: string; // base64 of the PNG
}

/** The tile, then the info (a tile reads bytes: it is what sees a remote change first). */
async function snapshot(server: TestServer, url: string, tile = TILE): Promise<Snapshot> {
  const t = await server.get(`${tile}?url=${q(url)}`);
  const body = Buffer.from(await t.arrayBuffer());
  assert.equal(t.status, 200, body.toString());
  const info = await server.getJson(`/cog/info?url=${q(url)}`);
  assert.equal(info.status, 200, JSON.stringify(info.body));
  return { info: info.body, tile: body.toString('base64') };
}

/** Writes to a temporary name and renames over `file`; times set `secondsAgo` back (distinct Last-Modified). */
async function replaceByRename(file: string, name: Name, secondsAgo: number): Promise<void> {
  const tmp = `${file}.part`;
  await writeFile(tmp, bytesOf(name));
  const t = new Date(Date.now() - secondsAgo * 1000);
  await utimes(tmp, t, t);
  await rename(tmp, file);
}

describe('datasets changed between requests', () => {
  let tree: TempTree;
  let server: TestServer;
  let revalidating: TestServer;
  const reference = new Map<string, Snapshot>();
  const ranges: RangeServer[] = [];
  let s3: S3Standin;

  before(async () => {
    tree = await makeTempTree({});
    s3 = await startS3Standin({ buckets: { bkt: {} }, accounts: [{ accessKeyId: 'AKID', secretAccessKey: 'secret' }] });
    const patch = (revalidateMs?: number) => (c: TestServer['config']) => {
      c.sources.localRoots = [...c.sources.localRoots, tree.dir];
      c.sources.retryBaseDelayMs = 1;
      c.sources.headerBytes = 4096; // the fixtures are ~64 KiB: a whole-file header read would leave nothing to fetch later
      c.sources.s3 = { region: 'us-east-1', endpoint: s3.url, accessKeyId: 'AKID', secretAccessKey: 'secret' };
      if (revalidateMs !== undefined) c.sources.revalidateMs = revalidateMs;
    };
    server = await startTestServer(patch(3_600_000));
    revalidating = await startTestServer(patch(0));
    for (const name of NAMES) {
      reference.set(name, await snapshot(server, fixture('versions', name)));
      reference.set(`${name}@z9`, await snapshot(server, fixture('versions', name), OVERVIEW_TILE));
    }
    assert.notDeepEqual(reference.get('v1.tif'), reference.get('v2.tif'));
    assert.notDeepEqual(reference.get('same_a.tif')!.tile, reference.get('same_b.tif')!.tile);
  });
  after(async () => {
    await server.close();
    await revalidating.close();
    await Promise.all(ranges.map((r) => r.close()));
    await s3.close();
    await tree.cleanup();
  });

  it('local write-and-rename: info and tiles describe the new file, and the old one again after a swap back', async () => {
    const file = path.join(tree.dir, 'renamed.tif');
    await replaceByRename(file, 'v1.tif', 120);
    assert.deepEqual(await snapshot(server, file), reference.get('v1.tif'));
    await replaceByRename(file, 'v2.tif', 90);
    assert.deepEqual(await snapshot(server, file), reference.get('v2.tif'));
    await replaceByRename(file, 'v1.tif', 60);
    assert.deepEqual(await snapshot(server, file), reference.get('v1.tif'));
  });

  it('local overwrite in place (another size, then the same size): the new file at once', async () => {
    const file = path.join(tree.dir, 'in-place.tif');
    await writeFile(file, bytesOf('v1.tif'));
    assert.deepEqual(await snapshot(server, file), reference.get('v1.tif'));
    await writeFile(file, bytesOf('v2.tif'));
    assert.deepEqual(await snapshot(server, file), reference.get('v2.tif'));
    await writeFile(file, bytesOf('same_a.tif'));
    const t = new Date(Date.now() - 60_000);
    await utimes(file, t, t); // past the racy window: the dataset is cached under this version
    assert.deepEqual(await snapshot(server, file), reference.get('same_a.tif'));
    assert.deepEqual(await snapshot(server, file), reference.get('same_a.tif'));
    await writeFile(file, bytesOf('same_b.tif')); // same size: only the times differ
    assert.deepEqual(await snapshot(server, file), reference.get('same_b.tif'));
  });

  for (const mode of ['etag', 'last-modified', 'none'] as const) {
    it(`http object with ${mode === 'none' ? 'no validator' : `an ${mode}`}: the new version once it is seen`, async () => {
      const root = path.join(tree.dir, `http-${mode}`);
      await import('node:fs/promises').then((fs) => fs.mkdir(root));
      const range = await startRangeServer({ root, validators: mode });
      ranges.push(range);
      const file = path.join(root, 'object.tif');
      const url = `${range.url}/object.tif`;
      await replaceByRename(file, 'v1.tif', 120);
      // The z9 tile reads the overview only: the full-resolution blocks stay unread (not cached).
      assert.deepEqual(await snapshot(server, url, OVERVIEW_TILE), reference.get('v1.tif@z9'));
      assert.deepEqual(await snapshot(revalidating, url, OVERVIEW_TILE), reference.get('v1.tif@z9'));
      await replaceByRename(file, 'v2.tif', 60);
      // Re-validated on every use: the change is seen by the next request, even a fully cached one.
      assert.deepEqual(await snapshot(revalidating, url, OVERVIEW_TILE), reference.get('v2.tif@z9'));
      // Re-validated only after an hour: a request that reads bytes not cached yet sees the change
      // (412 or another validator) and is answered whole from the new version (without a
      // validator nothing is kept across requests at all).
      assert.deepEqual(await snapshot(server, url), reference.get('v2.tif'));
      assert.deepEqual(await snapshot(server, url, OVERVIEW_TILE), reference.get('v2.tif@z9'));
    });
  }

  it('s3 object replaced: the new version once it is seen', async () => {
    const url = 's3://bkt/object.tif';
    s3.put('bkt', 'object.tif', bytesOf('v1.tif'));
    assert.deepEqual(await snapshot(server, url, OVERVIEW_TILE), reference.get('v1.tif@z9'));
    assert.deepEqual(await snapshot(revalidating, url, OVERVIEW_TILE), reference.get('v1.tif@z9'));
    s3.put('bkt', 'object.tif', bytesOf('v2.tif'));
    assert.deepEqual(await snapshot(revalidating, url, OVERVIEW_TILE), reference.get('v2.tif@z9'));
    assert.deepEqual(await snapshot(server, url), reference.get('v2.tif'));
    assert.deepEqual(await snapshot(server, url, OVERVIEW_TILE), reference.get('v2.tif@z9'));
    assert.ok(
      s3.requests.some((r) => r.outcome === 'PreconditionFailed'),
      'the change was seen as a 412 to If-Match',
    );
  });

  it('a sidecar appearing or vanishing later is seen at once, also in a directory whose listing was cached', async () => {
    const dir = path.join(tree.dir, 'sidecars');
    await mkdir(dir);
    const file = path.join(dir, 'dem.tif');
    await copyFile(fixture('realfiles', 'dem_pam.tif'), file);
    const old = new Date(Date.now() - 120_000);
    await utimes(file, old, old);
    await utimes(dir, old, old); // a settled directory: its absent sidecars are remembered
    type Info = { band_metadata: Array<[string, Record<string, string>]> };
    const stats = async (): Promise<Record<string, string>> => {
      const r = await server.getJson<Info>(`/cog/info?url=${q(file)}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.band_metadata[0][1];
    };
    assert.equal((await stats()).STATISTICS_MAXIMUM, undefined);
    assert.equal((await stats()).STATISTICS_MAXIMUM, undefined);
    await copyFile(fixture('realfiles', 'dem_pam.tif.aux.xml'), `${file}.aux.xml`);
    assert.equal((await stats()).STATISTICS_MAXIMUM, '2500');
    // the directory's mtime put back into the past (but not to the remembered one): still seen
    await utimes(dir, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    assert.equal((await stats()).STATISTICS_MAXIMUM, '2500');
    await unlink(`${file}.aux.xml`);
    assert.equal((await stats()).STATISTICS_MAXIMUM, undefined);
    await utimes(dir, new Date(Date.now() - 30_000), new Date(Date.now() - 30_000));
    assert.equal((await stats()).STATISTICS_MAXIMUM, undefined);
    await copyFile(fixture('realfiles', 'dem_pam.tif.aux.xml'), `${file}.aux.xml`);
    await utimes(dir, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    assert.equal((await stats()).STATISTICS_MAXIMUM, '2500');
  });

  it('race: tiles requested while the file is replaced are each the whole old or the whole new tile', async () => {
    const file = path.join(tree.dir, 'race.tif');
    await replaceByRename(file, 'v1.tif', 120);
    const tiles = new Map([
      [reference.get('v1.tif')!.tile, 'v1'],
      [reference.get('v2.tif')!.tile, 'v2'],
    ]);
    let swapping = true;
    const swapper = (async () => {
      for (let i = 0; swapping; i++) {
        await replaceByRename(file, i % 2 === 0 ? 'v2.tif' : 'v1.tif', 100 - (i % 50));
        await new Promise((r) => setTimeout(r, 3));
      }
    })();
    const seen: Record<string, number> = { v1: 0, v2: 0 };
    const failures: string[] = [];
    for (let wave = 0; wave < 6; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const r = await server.get(`${TILE}?url=${q(file)}`);
          return { status: r.status, body: Buffer.from(await r.arrayBuffer()) };
        }),
      );
      for (const a of answers) {
        const which = a.status === 200 ? tiles.get(a.body.toString('base64')) : undefined;
        if (which === undefined) failures.push(`${a.status} ${a.status === 200 ? '(a tile of neither version)' : a.body.toString()}`);
        else seen[which]!++;
      }
    }
    swapping = false;
    await swapper;
    assert.deepEqual(failures, [], 'every answer is the old or the new tile');
    assert.equal(seen.v1! + seen.v2!, 72);
  });
});
