import { stat } from 'node:fs/promises';
import { Errors } from '../errors.ts';
import { BUFFER_POOL } from '../util/buffer-pool.ts';
import { abortError } from './abort.ts';
import { fileError } from './file-error.ts';
import type { FileHandlePool } from './file-handle-pool.ts';
import type { LocalRoots } from './local-roots.ts';
import type { Source, SourceStats } from './source.ts';

/** A local file, read with positional reads on pooled FileHandles. */
export class FileSource implements Source {
  private constructor(
    readonly url: string,
    private readonly realPath: string,
    public size: number,
    private readonly pool: FileHandlePool,
    readonly stats: SourceStats,
  ) {}

  /** Checks the path against the roots and stats it. */
  static async open(absPath: string, shown: string, roots: LocalRoots, pool: FileHandlePool, stats: SourceStats): Promise<FileSource> {
    const real = await roots.resolve(absPath, shown);
    let info;
    try {
      info = await stat(real);
    } catch (err) {
      throw fileError(err, shown);
    }
    if (!info.isFile()) throw Errors.sourceNotFound(`Not a file: ${shown}`);
    return new FileSource(absPath, real, info.size, pool, stats);
  }

  async fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      // Format readers validate ranges from file structures (cog-source.ts): this is a bug of ours.
      throw Errors.internal(`Invalid byte range offset=${offset} length=${length}`);
    }
    if (signal?.aborted) throw abortError(signal, this.url);
    this.stats.reads++;
    const want = Math.max(0, Math.min(length, this.size - offset));
    if (want === 0) return new Uint8Array(0);
    const out = BUFFER_POOL.bytes(want); // readers give it back once decoded (block-reader.ts)
    let filled = 0;
    try {
      await this.pool.use(this.realPath, async (fh) => {
        while (filled < want) {
          this.stats.requests++;
          const { bytesRead } = await fh.read(out, filled, want - filled, offset + filled);
          if (bytesRead === 0) break; // file shrank since stat
          filled += bytesRead;
        }
      });
    } catch (err) {
      throw fileError(err, this.url);
    }
    this.stats.bytesFetched += filled;
    return filled === want ? out : out.slice(0, filled);
  }
}
