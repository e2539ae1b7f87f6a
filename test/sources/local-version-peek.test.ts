/**
 * LocalVersionPeek (the response cache's per-hit version check of a local file): the version text
 * equals the opened sources' (FileSource versions through the source opener, as tiff-grid joins
 * them), absent sidecars cost no stat while their settled directory is unchanged, and any sidecar
 * appearing or vanishing changes the version at once.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { mkdtemp, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { LocalVersionPeek } from '../../src/sources/local-version-peek.ts';
import { createSourceOpener } from '../../src/sources/open-source.ts';
import { DEFAULT_SOURCE_OPTIONS } from '../../src/sources/options.ts';

const SUFFIXES = ['.ovr', '.msk', '.aux.xml'];

test('the version of a file and its sidecars from stats; absent sidecars are not stat-ed while the directory is unchanged', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'version-peek-'));
  const opener = createSourceOpener({ ...DEFAULT_SOURCE_OPTIONS, localRoots: [dir], allowPrivateHosts: false, retries: 0, s3: { region: 'us-east-1' } });
  try {
    const file = path.join(dir, 'a.tif');
    await writeFile(file, 'x');
    await writeFile(`${file}.msk`, 'm');
    const ago = (s: number): Date => new Date(Date.now() - s * 1000);
    for (const f of [file, `${file}.msk`]) await utimes(f, ago(60), ago(60));
    const stats: string[] = [];
    const peek = new LocalVersionPeek(SUFFIXES, (p) => {
      stats.push(path.basename(p));
      return statSync(p, { bigint: true, throwIfNoEntry: false });
    });
    /** The oracle: the opened sources' versions, joined as tiff-grid's versionOf does. */
    const opened = async (): Promise<string> => {
      const parts = [(await opener.open(file)).version];
      for (const s of SUFFIXES) {
        const side = await opener.openIfExists(`${file}${s}`);
        if (side !== null) parts.push(`${s}=${side.version}`);
      }
      return parts.join('|');
    };

    // the directory changed just now (racy window): every name is stat-ed each time
    assert.equal(peek.peek(file), await opened());
    assert.equal(peek.peek(file), await opened());
    assert.equal(stats.length, 10);

    await utimes(dir, ago(60), ago(60));
    stats.length = 0;
    assert.equal(peek.peek(file), await opened());
    assert.equal(stats.length, 5);
    stats.length = 0;
    assert.equal(peek.peek(file), await opened());
    assert.deepEqual(stats, ['a.tif', path.basename(dir), 'a.tif.msk'], 'only the file, its directory and the present sidecar');

    const before = peek.peek(file);
    await writeFile(`${file}.ovr`, 'o'); // the directory's mtime moves
    await utimes(`${file}.ovr`, ago(30), ago(30));
    const withOvr = peek.peek(file);
    assert.notEqual(withOvr, before);
    assert.equal(withOvr, await opened());
    await utimes(dir, ago(20), ago(20)); // settled again, but not the remembered state
    assert.equal(peek.peek(file), withOvr);
    await unlink(`${file}.msk`);
    await utimes(dir, ago(10), ago(10));
    const withoutMsk = peek.peek(file);
    assert.notEqual(withoutMsk, withOvr);
    assert.equal(withoutMsk, await opened());

    // a sidecar rewritten in place (the directory unchanged) is seen: present sidecars are stat-ed every time
    await writeFile(`${file}.ovr`, 'longer');
    await utimes(`${file}.ovr`, ago(5), ago(5));
    assert.notEqual(peek.peek(file), withoutMsk);
    assert.equal(peek.peek(file), await opened());

    // what stats cannot stand for: a file within the racy window, a missing file, a remote location
    await writeFile(file, 'y');
    assert.equal(peek.peek(file), undefined);
    assert.equal(peek.peek(path.join(dir, 'missing.tif')), undefined);
    assert.equal(peek.peek('https://example.com/a.tif'), undefined);
  } finally {
    await opener.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a file without sidecars costs two stats per check; a rewrite of the same size is a new version at once', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'version-peek-'));
  const opener = createSourceOpener({ ...DEFAULT_SOURCE_OPTIONS, localRoots: [dir], allowPrivateHosts: false, retries: 0, s3: { region: 'us-east-1' } });
  try {
    const file = path.join(dir, 'b.tif');
    await writeFile(file, 'one');
    const ago = (s: number): Date => new Date(Date.now() - s * 1000);
    await utimes(file, ago(60), ago(60));
    await utimes(dir, ago(60), ago(60));
    let stats = 0;
    const peek = new LocalVersionPeek(SUFFIXES, (p) => {
      stats++;
      return statSync(p, { bigint: true, throwIfNoEntry: false });
    });
    const first = peek.peek(file);
    assert.equal(first, (await opener.open(file)).version);
    stats = 0;
    assert.equal(peek.peek(file), first);
    assert.equal(stats, 2, 'the file and its directory');
    await writeFile(file, 'two'); // same size, in place: the directory does not change
    await utimes(file, ago(30), ago(30));
    const second = peek.peek(file);
    assert.notEqual(second, first);
    assert.equal(second, (await opener.open(file)).version);
  } finally {
    await opener.close();
    await rm(dir, { recursive: true, force: true });
  }
});
