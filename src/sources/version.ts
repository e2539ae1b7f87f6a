/**
 * Versions of the bytes behind a Source: a dataset's identity is the version of its bytes, and
 * every cache below a dataset (byte cache, decoded blocks) keys on it, so an entry of an old
 * version can never be hit.
 *
 * - Local files: `f:<device>:<inode>:<size>:<mtime ns>:<ctime ns>`, checked with one `stat` on
 *   each use. The ctime catches rewrites that restore the old mtime (`cp -p`, `touch -r`).
 * - Remote objects: the ETag (`etag:…`) or else the Last-Modified (`lm:…`) of the first
 *   response, compared on every later response (remote-range-source.ts).
 * - A version that cannot be trusted to change when the bytes change gets a unique suffix
 *   (`~<n>`), so nothing read under it is ever shared with a later open (see `uniqueVersion`).
 */
import type { BigIntStats } from 'node:fs';
import { Errors, isRastileError } from '../errors.ts';
import type { Source } from './source.ts';

/**
 * How long after its mtime a file's stat is trusted as its version ("racy git"): file times
 * come from a coarse clock (one kernel tick; a second or two on some filesystems), so two writes
 * within one tick leave the same mtime, and a same-size rewrite would go unseen. A stat taken
 * more than this after the mtime proves any later write gets a different mtime; a file opened
 * sooner gets a unique version (re-opened on its next use, nothing shared).
 */
export const RACY_FILE_MS = 2000;

let uniqueCounter = 0;

/** `base` made unique to this open: caches keyed on it are never hit by a later open. */
export function uniqueVersion(base: string): string {
  return `${base}~${++uniqueCounter}`;
}

/** The version key of a file's stat (device, inode, size, mtime and ctime in ns; the ctime last). */
export function fileIdentity(st: BigIntStats): string {
  return `f:${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** Whether a stat observed at `observedAtMs` (taken before the stat call) is past the racy window. */
export function fileSettled(st: BigIntStats, observedAtMs: number): boolean {
  // Every write moves the mtime; the ctime only adds rewrites that put an old mtime back, and
  // is not held to the window (utimes/chmod set it to now), so such a rewrite within one clock
  // tick of our last look is the one change left unseen.
  return observedAtMs - Number(st.mtimeMs) > RACY_FILE_MS;
}

/**
 * The read-set kind (src/util/read-set.ts) of a document read whole from a byte source (a
 * MosaicJSON): its version is the Source's, validated by opening the location again.
 */
export const SOURCE_READ_KIND = 'source';

/** The key under which caches keep data of `source` (its url and version). */
export function sourceCacheKey(source: Pick<Source, 'url' | 'version'>): string {
  return source.version === undefined ? source.url : `${source.url}\u0000${source.version}`;
}

/**
 * Runs `work`; when it fails because a dataset changed under it (SourceChanged: the opener then
 * already hands out the new version), runs it once more, so the answer comes whole from the new
 * version. A second change during the retry is reported (503).
 */
export async function retryIfSourceChanged<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isRastileError(err, 'SourceChanged')) throw err;
    return work();
  }
}

/** The error of a read that found other bytes than its version's. */
export function sourceChanged(what: string, detail: string): Error {
  return Errors.sourceChanged(`${what} changed while it was being read (${detail}); please retry`);
}
