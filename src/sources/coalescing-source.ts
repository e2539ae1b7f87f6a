import { abortError, SharedWork } from './abort.ts';
import type { ByteSink, Source, SourceStats } from './source.ts';
import { streamRead } from './stream-read.ts';

interface PendingRead {
  offset: number;
  length: number;
  signal: AbortSignal | undefined;
  resolve: (bytes: Uint8Array) => void;
  reject: (err: unknown) => void;
}

export interface CoalesceOptions {
  /** Reads at most this far apart are merged. */
  maxGapBytes: number;
  /** A merged request never spans more than this (a single larger read goes alone). */
  maxMergedBytes: number;
}

/**
 * Collects the reads issued during one turn of the event loop (until setImmediate fires, so
 * reads started from different promise chains of the same tick count too), sorts them and merges
 * neighbours that are adjacent, overlapping or at most `maxGapBytes` apart into one inner read,
 * e.g. the tiles of one COG window. Each caller gets its own slice of the merged bytes.
 */
export class CoalescingSource implements Source {
  private queue: PendingRead[] = [];
  private scheduled = false;

  constructor(
    private readonly inner: Source,
    private readonly options: CoalesceOptions,
    readonly stats: SourceStats,
  ) {}

  get url(): string {
    return this.inner.url;
  }

  get size(): number | undefined {
    return this.inner.size;
  }

  get version(): string | undefined {
    return this.inner.version;
  }

  get changed(): boolean {
    return this.inner.changed === true;
  }

  fetch(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (signal?.aborted) return Promise.reject(abortError(signal, this.url));
    return new Promise<Uint8Array>((resolve, reject) => {
      this.queue.push({ offset, length, signal, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** A streamed read goes alone, at once (it is one large range: nothing to merge it with). */
  stream(offset: number, length: number, sink: ByteSink, signal?: AbortSignal): Promise<number> {
    if (signal?.aborted) return Promise.reject(abortError(signal, this.url));
    return streamRead(this.inner, offset, length, sink, signal);
  }

  private flush(): void {
    this.scheduled = false;
    const reads = this.queue;
    this.queue = [];
    reads.sort((a, b) => a.offset - b.offset);
    const { maxGapBytes, maxMergedBytes } = this.options;
    let group: PendingRead[] = [];
    let groupStart = 0;
    let groupEnd = 0;
    for (const read of reads) {
      const end = read.offset + read.length;
      if (group.length > 0 && read.offset <= groupEnd + maxGapBytes && Math.max(groupEnd, end) - groupStart <= maxMergedBytes) {
        group.push(read);
        groupEnd = Math.max(groupEnd, end);
        continue;
      }
      if (group.length > 0) this.run(group, groupStart, groupEnd);
      group = [read];
      groupStart = read.offset;
      groupEnd = end;
    }
    if (group.length > 0) this.run(group, groupStart, groupEnd);
  }

  private run(group: PendingRead[], start: number, end: number): void {
    if (group.length === 1) {
      const read = group[0]!;
      this.inner.fetch(read.offset, read.length, read.signal).then(read.resolve, read.reject);
      return;
    }
    this.stats.coalescedReads += group.length;
    const work = new SharedWork((s) => this.scatter(group, start, end, s));
    for (let i = 0; i < group.length; i++) {
      const read = group[i]!;
      work.join(read.signal, this.url).then((parts) => read.resolve(parts[i]!), read.reject);
    }
  }

  /**
   * One inner read of [start, end) streamed straight into an array of each read's own (in `group`'s
   * order): no array of the merged range is made and copied from, one copy of the bytes instead of
   * two. An array is cut short where the object ends.
   */
  private async scatter(group: readonly PendingRead[], start: number, end: number, signal: AbortSignal): Promise<Uint8Array[]> {
    const parts = group.map((r) => new Uint8Array(r.length));
    let at = start; // object offset of the next piece
    const sink: ByteSink = {
      restart() {
        at = start;
      },
      write(piece) {
        const pieceEnd = at + piece.length;
        for (let i = 0; i < group.length; i++) {
          const { offset, length } = group[i]!;
          const from = Math.max(offset, at);
          const to = Math.min(offset + length, pieceEnd);
          if (from < to) parts[i]!.set(piece.subarray(from - at, to - at), from - offset);
        }
        at = pieceEnd;
      },
    };
    const n = await streamRead(this.inner, start, end - start, sink, signal);
    const last = start + n;
    return parts.map((p, i) => {
      const offset = group[i]!.offset;
      return offset + p.length <= last ? p : p.slice(0, Math.max(0, last - offset));
    });
  }
}
