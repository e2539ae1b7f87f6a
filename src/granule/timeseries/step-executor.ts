/**
 * Runs the steps of a time series in-process with a bounded concurrency, whatever the backend:
 * the caller passes the per-step work (open the backend's reader for that step's search, read,
 * mosaic, summarise or render). Semantics (titiler-cmr §5.3, without its HTTP sub-requests):
 * - results come back in step order; a step with no data (a 'NoData' error, HTTP 204) gives null;
 * - the first failing step fails the series with its own error (status and message); the steps
 *   still running are aborted and no further step starts;
 * - the caller's signal (client gone, request deadline) aborts every running step and stops the
 *   series before the next step starts.
 */
import { isRastileError } from '../../errors.ts';
import { abortError } from '../../sources/abort.ts';

export interface StepRunOptions {
  /** Steps running at once (RASTILE_TIMESERIES_CONCURRENCY). */
  concurrency: number;
  signal: AbortSignal;
}

export async function runSteps<T>(
  steps: readonly string[],
  work: (step: string, index: number, signal: AbortSignal) => Promise<T>,
  options: StepRunOptions,
): Promise<Array<T | null>> {
  const results: Array<T | null> = new Array<T | null>(steps.length).fill(null);
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  let next = 0;
  let failure: { error: unknown } | undefined;

  const worker = async (): Promise<void> => {
    while (next < steps.length && !signal.aborted) {
      const index = next++;
      // Each step gets its own signal, linked to the series' by one listener removed when the
      // step ends: a step's reads wait on their step's signal, so the series' signal holds at most
      // one listener per running step (all steps' reads on one shared signal exceeded Node's
      // 10-listener warning with four concurrent /array steps).
      const own = new AbortController();
      const forward = () => own.abort(signal.reason);
      signal.addEventListener('abort', forward, { once: true });
      try {
        results[index] = await work(steps[index]!, index, own.signal);
      } catch (err) {
        if (isRastileError(err, 'NoData') && !signal.aborted) continue;
        if (failure === undefined && !stop.signal.aborted) failure = { error: options.signal.aborted ? abortError(options.signal, 'time series') : err };
        stop.abort();
        return;
      } finally {
        signal.removeEventListener('abort', forward);
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, steps.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== undefined) throw failure.error;
  if (options.signal.aborted) throw abortError(options.signal, 'time series');
  return results;
}
