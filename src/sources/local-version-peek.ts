/**
 * The version of a local file and its sidecars from synchronous stats, for checks on every use
 * (the response cache's hits): `<identity>|<suffix>=<identity>…` for the sidecars present, the
 * same text the opened sources' versions give (formats/tiff/tiff-grid.ts `versionOf`).
 *
 * Absent sidecars cost no stat while their directory is unchanged: a name appearing in or
 * vanishing from a directory (create, unlink, rename, link) changes the directory's mtime, so when
 * the directory's stat (device, inode, mtime, ctime) is the one seen last time, the names absent
 * then are absent still — the rule sidecar-probe.ts applies to the opens, with the same racy-window
 * guard (a directory stat within RACY_FILE_MS of its mtime is not trusted: every name is stat'ed
 * again) and the same known gap (a sidecar that is a dangling symlink whose target appears later is
 * seen once the directory changes). A file with no sidecars costs two stats: itself and its directory.
 */
import { statSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { LruCache } from '../util/lru-cache.ts';
import { parseLocation } from './location.ts';
import { fileIdentity, fileSettled } from './version.ts';

interface Remembered {
  /** The local path, or null for a location that is not a local file. */
  path: string | null;
  /** The directory's stat at the last check (undefined: not trusted). */
  dir: BigIntStats | undefined;
  /** Per suffix: absent at that check. */
  absent: boolean[];
  /** The file's stat and the version text at the last check: an unchanged file reuses the text. */
  main: BigIntStats | undefined;
  version: string;
}

/** Same directory entry state: a name added, removed or renamed moves the mtime (and ctime). */
const sameDir = (a: BigIntStats, b: BigIntStats): boolean => a.dev === b.dev && a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/** The fields of `fileIdentity` (sources/version.ts). */
const sameFile = (a: BigIntStats, b: BigIntStats): boolean => sameDir(a, b) && a.size === b.size;

/** Locations remembered: a few hundred bytes each. */
const REMEMBERED = 4096;

export class LocalVersionPeek {
  private readonly seen = new LruCache<string, Remembered>(REMEMBERED, () => 1);

  constructor(
    private readonly suffixes: readonly string[],
    /** The stat (tests count the calls). */
    private readonly stat: (p: string) => BigIntStats | undefined = (p) => statSync(p, { bigint: true, throwIfNoEntry: false }),
  ) {}

  /**
   * The version of `location` now, or undefined when stats cannot stand for it: not a local file,
   * the file missing or not a regular file, or it or a sidecar changed within the racy window.
   * Stats follow symlinks as the opens do.
   */
  peek(location: string): string | undefined {
    let known = this.seen.get(location);
    if (known === undefined) {
      let p: string | null = null;
      try {
        const loc = parseLocation(location);
        if (loc.kind === 'file') p = loc.path;
      } catch {
        p = null;
      }
      known = { path: p, dir: undefined, absent: [], main: undefined, version: '' };
      this.seen.set(location, known);
    }
    const file = known.path;
    if (file === null) return undefined;
    const observedAt = Date.now();
    const main = this.stat(file);
    if (main === undefined || !main.isFile() || !fileSettled(main, observedAt)) return undefined;
    const d = this.stat(path.dirname(file));
    const dir = d !== undefined && fileSettled(d, observedAt) ? d : undefined;
    const skip = dir !== undefined && known.dir !== undefined && sameDir(dir, known.dir) ? known.absent : null;
    // Nothing to stat but the file (every sidecar known absent) and the file unchanged: the same text.
    if (skip !== null && !skip.includes(false) && known.main !== undefined && sameFile(main, known.main)) return known.version;
    let version = fileIdentity(main);
    const absent: boolean[] = [];
    for (let i = 0; i < this.suffixes.length; i++) {
      if (skip !== null && skip[i]) {
        absent.push(true);
        continue;
      }
      const st = this.stat(`${file}${this.suffixes[i]}`);
      absent.push(st === undefined);
      if (st === undefined) continue;
      if (!st.isFile() || !fileSettled(st, observedAt)) return undefined;
      version += `|${this.suffixes[i]}=${fileIdentity(st)}`;
    }
    known.dir = dir;
    known.absent = absent;
    known.main = main;
    known.version = version;
    return version;
  }
}
