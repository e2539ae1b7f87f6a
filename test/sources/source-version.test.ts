/**
 * Source versions (src/sources/version.ts): a Source reads one version of the bytes; a read that
 * meets another version throws SourceChanged, and the opener hands out a new Source for the new
 * version. Local files (overwrite in place, write-and-rename), loopback HTTP servers with and
 * without validators, and the S3 stand-in.
 */
import assert from 'node:assert/strict';
import { rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { createSourceOpener, type ManagedSourceOpener } from '../../src/sources/open-source.ts';
import { sourceOptionsFromEnv } from '../../src/sources/options.ts';
import { etagFromSeconds, RemoteVersion } from '../../src/sources/remote-version.ts';
import type { Source } from '../../src/sources/source.ts';
import { startRangeServer, type RangeServer } from '../helpers/http-range-server.ts';
import { startS3Standin } from '../helpers/s3-standin.ts';
import { makeTempTree, patternBytes, type TempTree } from './fixture-files.ts';

const OLD = patternBytes(100_000, 1);
const NEW = patternBytes(100_000, 2); // same size: only the version tells them apart
const BIGGER = patternBytes(120_000, 3);

const isChanged = (err: unknown): boolean => isRastileError(err, 'SourceChanged');

/** Sets a file's times `secondsAgo` back, past the racy window (its version may be reused). */
async function age(file: string, secondsAgo: number): Promise<void> {
  const t = new Date(Date.now() - secondsAgo * 1000);
  await utimes(file, t, t);
}

/** Writes `bytes` to a temporary name beside `file` and renames it over `file` (as most tools do). */
async function replaceByRename(file: string, bytes: Uint8Array, secondsAgo = 30): Promise<void> {
  const tmp = `${file}.tmp`;
  await writeFile(tmp, bytes);
  await age(tmp, secondsAgo);
  await rename(tmp, file);
}

describe('local file versions', () => {
  let tree: TempTree;
  let opener: ManagedSourceOpener;
  let file: string;

  before(async () => {
    tree = await makeTempTree({ 'a.bin': OLD });
    file = path.join(tree.dir, 'a.bin');
    opener = createSourceOpener({ ...sourceOptionsFromEnv({}), localRoots: [tree.dir], maxOpenFiles: 4 });
  });
  after(async () => {
    await opener.close();
    await tree.cleanup();
  });

  it('overwrite in place (same size): the old source refuses to read, the opener gives the new version', async () => {
    await writeFile(file, OLD);
    await age(file, 60);
    const old = await opener.open(file);
    assert.equal(old, await opener.open(file), 'an unchanged file keeps its source');
    assert.deepEqual(await old.fetch(0, 100), OLD.subarray(0, 100));
    await writeFile(file, NEW);
    await age(file, 30);
    await assert.rejects(old.fetch(0, 100), isChanged);
    const fresh = await opener.open(file);
    assert.notEqual(fresh, old);
    assert.notEqual(fresh.version, old.version);
    assert.deepEqual(await fresh.fetch(500, 1000), NEW.subarray(500, 1500));
  });

  it('write-and-rename: the pooled handle on the old inode is not used for the new version', async () => {
    await writeFile(file, OLD);
    await age(file, 60);
    const old = await opener.open(file);
    assert.deepEqual(await old.fetch(0, 10), OLD.subarray(0, 10)); // pools a handle on this inode
    await replaceByRename(file, BIGGER);
    const fresh = await opener.open(file);
    assert.notEqual(fresh.version, old.version);
    assert.equal(fresh.size, BIGGER.length);
    assert.deepEqual(await fresh.fetch(110_000, 10_000), BIGGER.subarray(110_000));
    // The opener retired the old version's handle: a read of the old source would open the new inode.
    await assert.rejects(old.fetch(0, 10), isChanged);
  });

  it('a file modified within the racy window gets a unique version each open (nothing shared)', async () => {
    await writeFile(file, NEW);
    const a = await opener.open(file);
    const b = await opener.open(file);
    assert.notEqual(a, b);
    assert.match(a.version ?? '', /~\d+$/);
    assert.notEqual(a.version, b.version);
    await age(file, 10);
    const c = await opener.open(file);
    assert.equal(await opener.open(file), c, 'once past the window the version is reused');
    assert.doesNotMatch(c.version ?? '', /~/);
  });

  it('a rewrite that restores the old mtime is still seen (ctime)', async () => {
    await writeFile(file, OLD);
    await age(file, 60);
    const old = await opener.open(file);
    const { mtime } = await import('node:fs').then((fs) => fs.statSync(file));
    await writeFile(file, NEW);
    await utimes(file, mtime, mtime); // cp -p / touch -r
    await assert.rejects(old.fetch(0, 10), isChanged);
    assert.notEqual((await opener.open(file)).version, old.version);
  });
});

type Mode = 'etag' | 'weak-etag' | 'last-modified' | 'none';

describe('http(s) object versions over a loopback range server', () => {
  let tree: TempTree;
  const servers: RangeServer[] = [];
  let opener: ManagedSourceOpener;

  before(async () => {
    tree = await makeTempTree({});
    opener = createSourceOpener({ ...sourceOptionsFromEnv({}), localRoots: [], allowPrivateHosts: true, retryBaseDelayMs: 1 });
  });
  after(async () => {
    await opener.close();
    await Promise.all(servers.map((s) => s.close()));
    await tree.cleanup();
  });

  async function serve(mode: Mode, ignoreIfMatch = false): Promise<{ server: RangeServer; file: string; url: string }> {
    const name = `${mode}${ignoreIfMatch ? '-ignore' : ''}.bin`;
    const file = path.join(tree.dir, name);
    await writeFile(file, OLD);
    await age(file, 120);
    const server = await startRangeServer({ root: tree.dir, validators: mode, ignoreIfMatch });
    servers.push(server);
    return { server, file, url: `${server.url}/${name}` };
  }

  for (const [mode, ignoreIfMatch] of [
    ['etag', false],
    ['etag', true],
    ['weak-etag', false],
    ['last-modified', false],
  ] as Array<[Mode, boolean]>) {
    it(`${mode}${ignoreIfMatch ? ' (server ignores If-Match)' : ''}: a changed object is refused, the opener re-opens it`, async () => {
      const { server, file, url } = await serve(mode, ignoreIfMatch);
      const old = await opener.open(url);
      assert.ok(old.version?.startsWith(mode === 'last-modified' ? 'lm:' : 'etag:'), old.version);
      assert.equal(await opener.open(url), old, 'kept while no response showed another version');
      await replaceByRename(file, NEW, 60); // same size, another second: a new ETag and Last-Modified
      await assert.rejects(old.fetch(90_000, 100), isChanged);
      const last = server.requests.at(-1)!;
      if (mode === 'etag') assert.equal(last.headers['if-match'], old.version!.slice('etag:'.length), 'strong ETags are sent as If-Match');
      else assert.equal(last.headers['if-match'], undefined, 'weak ETags and dates are compared, not sent');
      await assert.rejects(old.fetch(0, 10), isChanged, 'a changed source stays refused');
      const fresh = await opener.open(url);
      assert.notEqual(fresh, old);
      assert.notEqual(fresh.version, old.version);
      assert.deepEqual(await fresh.fetch(90_000, 100), NEW.subarray(90_000, 90_100));
    });
  }

  it('the version comes from the first real read: a read over 64 KiB is one request, later reads still If-Match', async () => {
    const { server, file, url } = await serve('etag');
    const before = server.requests.length;
    const src = await opener.open(url, undefined, { offset: 0, length: 80_000 });
    assert.match(src.version ?? '', /^etag:"/);
    assert.equal(src.size, OLD.length);
    assert.deepEqual(await src.fetch(0, 80_000), OLD.subarray(0, 80_000), 'from the read the open made');
    assert.deepEqual(
      server.requests.slice(before).map((r) => r.range),
      ['bytes=0-79999'],
      'one request: no 64 KiB probe before the read',
    );
    assert.equal(await opener.open(url, undefined, { offset: 0, length: 10 }), src, 'a kept source: no read on open');
    assert.equal(server.requests.length, before + 1);
    await replaceByRename(file, NEW, 60);
    await assert.rejects(src.fetch(80_000, 100), isChanged);
    assert.equal(server.requests.at(-1)!.headers['if-match'], src.version!.slice('etag:'.length), 'later reads carry If-Match');
    const fresh = await opener.open(url, undefined, { offset: 50_000, length: 70_000 });
    assert.notEqual(fresh.version, src.version);
    assert.equal(server.requests.at(-1)!.range, 'bytes=50000-119999', 'the re-open reads the caller’s range, not the header');
    assert.deepEqual(await fresh.fetch(50_000, 50_000), NEW.subarray(50_000));
    assert.equal(server.requests.at(-1)!.range, 'bytes=50000-119999', 'answered from the read the open made');
  });

  it('no validator: the size is compared within one open, and nothing is reused across opens', async () => {
    const { file, url } = await serve('none');
    const a = await opener.open(url);
    assert.match(a.version ?? '', /^size:100000~\d+$/);
    const b = await opener.open(url);
    assert.notEqual(a, b, 'each open reads the object again');
    await replaceByRename(file, BIGGER);
    await assert.rejects(a.fetch(90_000, 100), isChanged);
    assert.deepEqual(await (await opener.open(url)).fetch(110_000, 100), BIGGER.subarray(110_000, 110_100));
  });
});

describe('objects without validators: the opt-in reuse window (unvalidatedReuseMs)', () => {
  it('reused within the window from the open (cached bytes shared), a size change still refused, never after the window', async () => {
    const tree = await makeTempTree({ 'n.bin': OLD });
    const server = await startRangeServer({ root: tree.dir, validators: 'none' });
    const url = `${server.url}/n.bin`;
    const open = (reuseMs: number): ManagedSourceOpener =>
      createSourceOpener({ ...sourceOptionsFromEnv({}), localRoots: [], allowPrivateHosts: true, retryBaseDelayMs: 1, unvalidatedReuseMs: reuseMs });
    const windowed = open(60_000);
    const expired = open(1);
    try {
      const a = await windowed.open(url);
      assert.match(a.version ?? '', /^size:100000~\d+$/);
      const n = server.requests.length;
      assert.equal(await windowed.open(url), a, 'kept within the window');
      assert.deepEqual(await a.fetch(0, 100), OLD.subarray(0, 100));
      assert.equal(server.requests.length, n, 'no request: the open and the read are answered from what the first open read');
      await replaceByRename(path.join(tree.dir, 'n.bin'), BIGGER);
      await assert.rejects(a.fetch(90_000, 100), isChanged, 'a size change is still seen on a read');
      const b = await windowed.open(url);
      assert.notEqual(b, a);
      assert.deepEqual(await b.fetch(110_000, 100), BIGGER.subarray(110_000, 110_100));

      const c = await expired.open(url);
      await new Promise((r) => setTimeout(r, 5));
      assert.notEqual(await expired.open(url), c, 'after the window: opened again (a new version, nothing shared)');
    } finally {
      await windowed.close();
      await expired.close();
      await server.close();
      await tree.cleanup();
    }
  });

  it('RASTILE_UNVALIDATED_REUSE_MS sets it; default 0 (never reused)', () => {
    assert.equal(sourceOptionsFromEnv({ RASTILE_UNVALIDATED_REUSE_MS: '5000' }).unvalidatedReuseMs, 5000);
    assert.equal(sourceOptionsFromEnv({}).unvalidatedReuseMs, undefined);
  });
});

describe('validators that count whole seconds (Last-Modified, nginx ETags)', () => {
  const LM = 'Thu, 26 Nov 2026 08:00:00 GMT';
  const seconds = (Date.parse(LM) / 1000).toString(16);
  const first = (h: Record<string, string>): RemoteVersion => {
    const v = new RemoteVersion();
    v.observe(new Headers(h), 100);
    return v;
  };

  it("nginx's ETag spells the mtime second and the size; S3's MD5 does not", () => {
    assert.equal(etagFromSeconds(`"${seconds}-64"`, LM), true);
    assert.equal(etagFromSeconds(`W/"${seconds}-64"`, LM), true);
    assert.equal(etagFromSeconds('"e208350d16cc787656956bc242417df4"', LM), false);
    assert.equal(etagFromSeconds(`"${(Date.parse(LM) / 1000 - 1).toString(16)}-64"`, LM), false);
  });

  it('a Last-Modified within 2 s of the Date is not trusted (unique version, no reuse); later it is', () => {
    for (const etag of [undefined, `"${seconds}-64"`]) {
      const e: Record<string, string> = etag === undefined ? {} : { etag };
      const racy = first({ ...e, 'last-modified': LM, date: 'Thu, 26 Nov 2026 08:00:01 GMT' });
      assert.equal(racy.validated, false, String(etag));
      assert.match(racy.version!, /~\d+$/);
      const settled = first({ ...e, 'last-modified': LM, date: 'Thu, 26 Nov 2026 08:00:02 GMT' });
      assert.equal(settled.validated, true, String(etag));
      assert.doesNotMatch(settled.version!, /~/);
    }
    // A content ETag is trusted at once, however recent the Last-Modified.
    const md5 = first({ etag: '"e208350d16cc787656956bc242417df4"', 'last-modified': LM, date: LM });
    assert.equal(md5.validated, true);
    assert.equal(md5.version, 'etag:"e208350d16cc787656956bc242417df4"');
  });
});

describe('S3 object versions (stand-in)', () => {
  it('a replaced object answers 412 to If-Match; the opener re-opens the new version', async () => {
    const s3 = await startS3Standin({ buckets: { bkt: { 'k.bin': OLD } }, accounts: [{ accessKeyId: 'AKID', secretAccessKey: 'secret' }] });
    const opener = createSourceOpener({
      ...sourceOptionsFromEnv({}),
      localRoots: [],
      s3: { region: 'us-east-1', endpoint: s3.url, accessKeyId: 'AKID', secretAccessKey: 'secret' },
    });
    try {
      const old: Source = await opener.open('s3://bkt/k.bin');
      assert.match(old.version ?? '', /^etag:"[0-9a-f]{32}"$/);
      s3.put('bkt', 'k.bin', NEW);
      await assert.rejects(old.fetch(90_000, 100), isChanged);
      const last = s3.requests.at(-1)!;
      assert.equal(last.outcome, 'PreconditionFailed', 'signed If-Match accepted, then refused as S3 does');
      const fresh = await opener.open('s3://bkt/k.bin');
      assert.notEqual(fresh.version, old.version);
      assert.deepEqual(await fresh.fetch(90_000, 100), NEW.subarray(90_000, 90_100));
    } finally {
      await opener.close();
      await s3.close();
    }
  });
});
