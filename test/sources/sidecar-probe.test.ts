/** SidecarProbe: absent sidecars are not opened again while their directory is unchanged and settled. */
import assert from 'node:assert/strict';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Errors } from '../../src/errors.ts';
import type { SourceOpener } from '../../src/sources/open-source.ts';
import type { Source } from '../../src/sources/source.ts';
import { SidecarProbe } from '../../src/sources/sidecar-probe.ts';

/** An opener over the real directory that records which names it was asked for. */
function recordingOpener(): SourceOpener & { asked: string[] } {
  const asked: string[] = [];
  const openIfExists = async (location: string): Promise<Source | null> => {
    asked.push(path.basename(location));
    try {
      await writeFile(location, '', { flag: 'r+' });
      return { url: location, size: 0 } as unknown as Source;
    } catch {
      return null;
    }
  };
  return {
    asked,
    open: async (l: string) => (await openIfExists(l)) ?? Promise.reject(Errors.sourceNotFound(l)),
    openIfExists,
  } as unknown as SourceOpener & { asked: string[] };
}

const SUFFIXES = ['.ovr', '.msk', '.aux.xml'];

test('absent sidecars are remembered per settled directory state; any change of the directory probes again', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'sidecar-probe-'));
  try {
    const file = path.join(dir, 'a.tif');
    await writeFile(file, 'x');
    await writeFile(`${file}.msk`, 'm');
    const opener = recordingOpener();
    const probe = new SidecarProbe(opener);
    const present = async (): Promise<boolean[]> => (await probe.open(file, SUFFIXES)).map((s) => s !== null);

    // a directory changed just now (racy window): every name is probed on every use
    assert.deepEqual(await present(), [false, true, false]);
    assert.deepEqual(await present(), [false, true, false]);
    assert.equal(opener.asked.length, 6);

    const settle = (secondsAgo: number): Promise<void> => utimes(dir, new Date(Date.now() - secondsAgo * 1000), new Date(Date.now() - secondsAgo * 1000));
    await settle(60);
    opener.asked.length = 0;
    assert.deepEqual(await present(), [false, true, false]); // remembered from here on
    assert.deepEqual(await present(), [false, true, false]);
    assert.deepEqual(opener.asked, ['a.tif.ovr', 'a.tif.msk', 'a.tif.aux.xml', 'a.tif.msk']);

    await writeFile(`${file}.ovr`, 'o'); // the directory's mtime moves
    assert.deepEqual(await present(), [true, true, false]);
    await settle(30);
    opener.asked.length = 0;
    assert.deepEqual(await present(), [true, true, false]);
    assert.deepEqual(await present(), [true, true, false]);
    assert.deepEqual(opener.asked, ['a.tif.ovr', 'a.tif.msk', 'a.tif.aux.xml', 'a.tif.ovr', 'a.tif.msk']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
