import assert from 'node:assert/strict';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isRastileError, type RastileErrorKind } from '../../src/errors.ts';
import { fileError } from '../../src/sources/file-error.ts';
import { createSourceOpener, type ManagedSourceOpener } from '../../src/sources/open-source.ts';
import { sourceOptionsFromEnv } from '../../src/sources/options.ts';
import { makeTempTree, patternBytes, type TempTree } from './fixture-files.ts';

async function kindOf(p: Promise<unknown>): Promise<RastileErrorKind | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (isRastileError(err)) return err.kind;
    throw err;
  }
}

describe('local file sources', () => {
  const data = patternBytes(200_000, 3);
  let tree: TempTree;
  let root: string;
  let opener: ManagedSourceOpener;

  before(async () => {
    tree = await makeTempTree({
      'root/a.tif': data,
      'root/sub/b.tif': patternBytes(1000, 9),
      'outside/secret.tif': 'secret',
    });
    root = path.join(tree.dir, 'root');
    await symlink(path.join(tree.dir, 'outside/secret.tif'), path.join(root, 'escape.tif'));
    await symlink(path.join(tree.dir, 'outside'), path.join(root, 'escape-dir'));
    await symlink(path.join(root, 'a.tif'), path.join(root, 'inner-link.tif'));
    await mkdir(path.join(root, 'dir.tif'));
    await symlink(path.join(root, 'loop-b.tif'), path.join(root, 'loop-a.tif'));
    await symlink(path.join(root, 'loop-a.tif'), path.join(root, 'loop-b.tif'));
    opener = createSourceOpener({ ...sourceOptionsFromEnv({}), localRoots: [root], maxOpenFiles: 2 });
  });
  after(async () => {
    await opener.close();
    await tree.cleanup();
  });

  it('reads exact bytes inside the root (path and file:// URL)', async () => {
    const src = await opener.open(path.join(root, 'a.tif'));
    assert.equal(src.size, data.length);
    assert.deepEqual(await src.fetch(1000, 5000), data.subarray(1000, 6000));
    assert.deepEqual(await src.fetch(199_990, 100), data.subarray(199_990)); // short read at the end
    assert.equal((await src.fetch(300_000, 10)).length, 0);
    const viaUrl = await opener.open(`file://${root}/sub/b.tif`);
    assert.deepEqual(await viaUrl.fetch(0, 1000), patternBytes(1000, 9));
    const viaLink = await opener.open(path.join(root, 'inner-link.tif'));
    assert.deepEqual(await viaLink.fetch(0, 10), data.subarray(0, 10));
  });

  it('returns the same Source for the same location', async () => {
    const [a, b] = await Promise.all([opener.open(path.join(root, 'a.tif')), opener.open(`${root}/sub/../a.tif`)]);
    assert.equal(a, b);
  });

  it('refuses paths outside the roots', async () => {
    assert.equal(await kindOf(opener.open(path.join(root, '../outside/secret.tif'))), 'SourceForbidden');
    assert.equal(await kindOf(opener.open(`${root}/../outside/secret.tif`)), 'SourceForbidden');
    assert.equal(await kindOf(opener.open(path.join(tree.dir, 'outside/secret.tif'))), 'SourceForbidden');
    assert.equal(await kindOf(opener.open('/etc/passwd')), 'SourceForbidden');
    assert.equal(await kindOf(opener.open(`file://${tree.dir}/outside/secret.tif`)), 'SourceForbidden');
    // symlinks that lead out
    assert.equal(await kindOf(opener.open(path.join(root, 'escape.tif'))), 'SourceForbidden');
    assert.equal(await kindOf(opener.open(path.join(root, 'escape-dir/secret.tif'))), 'SourceForbidden');
    // a missing file outside the roots does not reveal that it is missing
    assert.equal(await kindOf(opener.open(path.join(tree.dir, 'outside/nope.tif'))), 'SourceForbidden');
  });

  it('reports missing files and directories as not found', async () => {
    assert.equal(await kindOf(opener.open(path.join(root, 'missing.tif'))), 'SourceNotFound');
    assert.equal(await kindOf(opener.open(path.join(root, 'dir.tif'))), 'SourceNotFound');
    assert.equal(await opener.openIfExists(path.join(root, 'a.tif.ovr')), null);
    assert.notEqual(await opener.openIfExists(path.join(root, 'a.tif')), null);
  });

  it('reports a symlink loop as not found', async () => {
    await assert.rejects(opener.open(path.join(root, 'loop-a.tif')), {
      kind: 'SourceNotFound',
      message: `File not found (symlink loop): ${path.join(root, 'loop-a.tif')}`,
    });
  });

  it('maps file system error codes to typed errors naming the path the user gave', () => {
    const err = (code: string | undefined) => fileError(Object.assign(new Error('x'), { code }), 'data/x.tif');
    assert.deepEqual(
      [undefined, 'ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EISDIR', 'ELOOP', 'EIO'].map((c) => {
        const e = err(c) as { kind: string; message: string };
        return [e.kind, e.message];
      }),
      [
        ['UpstreamError', 'Cannot read data/x.tif'],
        ['SourceNotFound', 'File not found: data/x.tif'],
        ['SourceNotFound', 'File not found: data/x.tif'],
        ['SourceForbidden', 'Permission denied: data/x.tif'],
        ['SourceForbidden', 'Permission denied: data/x.tif'],
        ['SourceNotFound', 'Not a file: data/x.tif'],
        ['SourceNotFound', 'File not found (symlink loop): data/x.tif'],
        ['UpstreamError', 'Cannot read data/x.tif (EIO)'],
      ],
    );
  });

  it('resolves relative paths against the working directory', async () => {
    const before = process.cwd();
    process.chdir(path.join(root, 'sub'));
    try {
      const src = await opener.open('b.tif');
      assert.equal(src.url, path.join(root, 'sub/b.tif'));
      assert.equal(await kindOf(opener.open('../../outside/secret.tif')), 'SourceForbidden');
    } finally {
      process.chdir(before);
    }
  });

  it('refuses everything when no roots are configured', async () => {
    const none = createSourceOpener({ ...sourceOptionsFromEnv({}), localRoots: [] });
    assert.equal(await kindOf(none.open(path.join(root, 'a.tif'))), 'SourceForbidden');
  });

  it('keeps file descriptors bounded across many files and reads', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `many/f${i}.bin`);
    const many = await makeTempTree(Object.fromEntries(names.map((n, i) => [n, patternBytes(4096, i)])));
    const o = createSourceOpener({ ...sourceOptionsFromEnv({}), localRoots: [many.dir], maxOpenFiles: 3 });
    // Descriptors of this process that point into the temp tree (Linux /proc; other fds, e.g.
    // tsx's cache writes, do not count).
    const fds = () =>
      existsSync('/proc/self/fd')
        ? readdirSync('/proc/self/fd').filter((fd) => {
            try {
              return readlinkSync(`/proc/self/fd/${fd}`).startsWith(many.dir);
            } catch {
              return false;
            }
          }).length
        : o.stats.openFiles;
    const baseline = fds();
    assert.equal(baseline, 0);
    try {
      for (let round = 0; round < 3; round++) {
        await Promise.all(
          names.map(async (n, i) => {
            const s = await o.open(path.join(many.dir, n));
            assert.deepEqual(await s.fetch(100 * round, 64), patternBytes(4096, i).subarray(100 * round, 100 * round + 64));
          }),
        );
      }
      assert.ok(o.stats.openFiles <= 3, `open handles ${o.stats.openFiles}`);
      // Evicted handles close asynchronously: give closes already under way time to finish.
      for (let i = 0; i < 100 && fds() - baseline > 3; i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(fds() - baseline <= 3, `fds grew by ${fds() - baseline}`);
      await o.close();
      assert.equal(o.stats.openFiles, 0);
      assert.equal(fds(), 0, 'all descriptors closed');
    } finally {
      await many.cleanup();
    }
  });
});
