import { setTimeout as sleep } from 'node:timers/promises';
import { Errors, type RastileError } from '../errors.ts';
import { abortError } from './abort.ts';
import { Deadline } from './deadline.ts';
import type { ByteSink, Source, SourceStats } from './source.ts';
import { streamRead } from './stream-read.ts';

const retryable = new WeakSet<RastileError>();

/** Marks an error as transient (5xx, 429, connection reset, truncated body): the retry wrapper may try again. */
export function markRetryable(err: RastileError): RastileError {
  retryable.add(err);
  return err;
}

export function isRetryable(err: unknown): boolean {
  return typeof err === 'object' && err !== null && retryable.has(err as RastileError);
}

export interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  /** Deadline of each attempt. */
  timeoutMs: number;
  /** Safe name for messages (host or s3://bucket). */
  label: string;
}

const MAX_DELAY_MS = 10_000;

/**
 * Wraps a remote source: each attempt runs under its own deadline (caller's signal included);
 * transient failures are retried with exponential backoff and jitter. A timeout is not retried
 * (that would multiply the caller's wait); it becomes UpstreamTimeout.
 */
export class RetryingSource implements Source {
  constructor(
    private readonly inner: Source,
    private readonly options: RetryOptions,
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
    return this.attempts((s) => this.inner.fetch(offset, length, s), signal);
  }

  /** Each attempt streams again from the start (the sink is told to restart). */
  stream(offset: number, length: number, sink: ByteSink, signal?: AbortSignal): Promise<number> {
    return this.attempts((s) => streamRead(this.inner, offset, length, sink, s), signal);
  }

  private async attempts<T>(run: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const { retries, baseDelayMs, timeoutMs, label } = this.options;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw abortError(signal, label);
      const deadline = new Deadline(timeoutMs, signal);
      try {
        return await run(deadline.signal);
      } catch (err) {
        if (signal?.aborted) throw abortError(signal, label);
        if (deadline.timedOut) {
          throw Errors.upstreamTimeout(`${label} did not answer within ${formatSeconds(timeoutMs)}`);
        }
        if (!isRetryable(err) || attempt >= retries) throw err;
      } finally {
        deadline.dispose();
      }
      this.stats.retries++;
      const delay = Math.min(MAX_DELAY_MS, baseDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
      try {
        await sleep(delay, undefined, signal === undefined ? undefined : { signal });
      } catch {
        throw abortError(signal!, label);
      }
    }
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
