import { open, stat, type FileHandle } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import { Errors, isRastileError } from '../errors.ts';
import { BUFFER_POOL } from '../util/buffer-pool.ts';
import { abortError } from './abort.ts';
import { fileError } from './file-error.ts';
import type { FileHandlePool } from './file-handle-pool.ts';
import type { LocalRoots } from './local-roots.ts';
import type { Source, SourceStats } from './source.ts';
import { fileIdentity, fileSettled, sourceChanged, uniqueVersion } from './version.ts';

/**
 * A local file, read with positional reads on pooled FileHandles, bound to one version of the
 * file (device, inode, size, mtime). Every read is checked: the handle must be on the version's
 * inode (a write-and-rename leaves the old one behind) and an `fstat` after the read must still
 * show the version's size and mtime (an overwrite in place changes them before any new byte can
 * be read), else the read throws SourceChanged instead of returning bytes of another version.
 */
export class FileSource implements Source {
  /** A read found other bytes than the version's: the opener must not hand this source out again. */
  changed = false;
  private readonly handleKey: string;

  private constructor(
    readonly url: string,
    private readonly realPath: string,
    public size: number,
    private readonly pool: FileHandlePool,
    readonly stats: SourceStats,
    private readonly identity: string,
    private readonly inode: string,
    /** Stat taken past the racy window: the version may be shared by later opens. */
    private readonly settled: boolean,
    readonly version: string,
  ) {
    this.handleKey = `${realPath}\u0000${inode}`;
  }

  /** Checks the path against the roots and stats it. */
  static async open(absPath: string, shown: string, roots: LocalRoots, pool: FileHandlePool, stats: SourceStats): Promise<FileSource> {
    const real = await roots.resolve(absPath, shown);
    const observedAt = Date.now();
    // The version is the stat of an open handle, which is pooled: reads go to that very file
    // even when the path is replaced a moment later (no window between stat and open).
    let handle: FileHandle | undefined;
    let info: BigIntStats;
    try {
      handle = await open(real, 'r');
      info = await handle.stat({ bigint: true });
    } catch (err) {
      await handle?.close().catch(() => {});
      throw fileError(err, shown);
    }
    if (!info.isFile()) {
      await handle.close().catch(() => {});
      throw Errors.sourceNotFound(`Not a file: ${shown}`);
    }
    const identity = fileIdentity(info);
    const settled = fileSettled(info, observedAt);
    const inode = `${info.dev}:${info.ino}`;
    const source = new FileSource(absPath, real, Number(info.size), pool, stats, identity, inode, settled, settled ? identity : uniqueVersion(identity));
    pool.adopt(source.handleKey, handle);
    return source;
  }

  /**
   * Whether the path still leads to this version's bytes (one `stat`, following symlinks as the
   * open did). False for a version opened inside the racy window: it is never reused.
   */
  async isCurrent(): Promise<boolean> {
    if (this.changed || !this.settled) return false;
    try {
      return fileIdentity(await stat(this.url, { bigint: true })) === this.identity;
    } catch {
      return false;
    }
  }

  /** Closes this version's pooled handle (the opener calls it once a newer version replaced it). */
  retire(): void {
    this.pool.retire(this.handleKey);
  }

  async fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw Errors.badRequest(`Invalid byte range offset=${offset} length=${length}`);
    }
    if (signal?.aborted) throw abortError(signal, this.url);
    this.stats.reads++;
    if (this.changed) throw sourceChanged(this.url, 'the file was replaced');
    const want = Math.max(0, Math.min(length, this.size - offset));
    if (want === 0) return new Uint8Array(0);
    const out = BUFFER_POOL.bytes(want); // readers give it back once decoded (block-reader.ts)
    let filled = 0;
    try {
      await this.pool.use(
        this.realPath,
        this.handleKey,
        async (fh) => {
          while (filled < want) {
            this.stats.requests++;
            const { bytesRead } = await fh.read(out, filled, want - filled, offset + filled);
            if (bytesRead === 0) break; // file shrank since stat: the check below reports it
            filled += bytesRead;
          }
          // After the read: a write that changed any byte we got had updated size/mtime first.
          if (!this.unchanged(await fh.stat({ bigint: true }))) throw this.markChanged('modified');
        },
        async (fh) => {
          const st = await fh.stat({ bigint: true });
          if (`${st.dev}:${st.ino}` !== this.inode) throw this.markChanged('replaced');
        },
      );
    } catch (err) {
      BUFFER_POOL.release(out.buffer);
      if (isRastileError(err)) throw err;
      throw fileError(err, this.url);
    }
    this.stats.bytesFetched += filled;
    return filled === want ? out : out.slice(0, filled);
  }

  /**
   * The handle's file still holds this version. An inode unlinked since (replaced by a rename,
   * or deleted) has a new ctime from the link count alone while its bytes are the version's.
   */
  private unchanged(st: BigIntStats): boolean {
    const identity = fileIdentity(st);
    if (identity === this.identity) return true;
    return st.nlink === 0n && identity.slice(0, identity.lastIndexOf(':')) === this.identity.slice(0, this.identity.lastIndexOf(':'));
  }

  private markChanged(how: string): Error {
    this.changed = true;
    return sourceChanged(this.url, `the file was ${how}`);
  }
}
