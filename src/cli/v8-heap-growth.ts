/**
 * How much V8 lets a serving isolate's old generation grow past what survived the last full
 * collection before it starts the next one (`--heap-growing-percent`).
 *
 * V8 picks the factor from its measured GC speed against the mutator's allocation speed; our old
 * space is small (~24 MB live: code, tables, proj4) and marks fast, so V8 chose ~1.1–1.15 and ran a
 * full collection every ~3.5 MB promoted — 2.0–2.2 per 100 tiles under the workers bench, each
 * ~10 ms on the event loop plus concurrent marking on V8's helper threads. A fixed factor of 2
 * (BENCHMARKS.md, workers, 2026-11-26 eighth session) cuts them to ~0.75 per 100 tiles for ~10 MB
 * more peak RSS per serving isolate. On 2 cores with 2 workers the helpers' CPU is taken from the
 * other worker's event loop, so it counts twice there.
 *
 * `RASTILE_V8_HEAP_GROWING_PERCENT` overrides (0 = V8's own choice). Applied with
 * `v8.setFlagsFromString` at start, before the app loads (and before worker threads or cluster
 * workers start: threads share the process's flags, cluster workers apply it themselves): V8 reads
 * the flag at every full collection when it sets the next limit, so setting it at run time works
 * (checked: full GCs per 100 tiles 2.0 → 0.75), though node documents run-time flag changes as
 * unsupported in general.
 */
import v8 from 'node:v8';

/** The factor's percent above 1 for serving isolates (100 = the old generation may double). */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

/** The `--heap-growing-percent` to apply from the environment; undefined = leave V8's own choice. */
export function heapGrowingPercent(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env['RASTILE_V8_HEAP_GROWING_PERCENT']?.trim();
  if (raw === undefined || raw === '') return DEFAULT_HEAP_GROWING_PERCENT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 1000) throw new Error(`RASTILE_V8_HEAP_GROWING_PERCENT must be an integer 0–1000, got '${raw}'`);
  return n === 0 ? undefined : n;
}

/** The V8 flag the environment asks for, if any. */
export function heapGrowthFlag(env: NodeJS.ProcessEnv): string | undefined {
  const percent = heapGrowingPercent(env);
  return percent === undefined ? undefined : `--heap-growing-percent=${percent}`;
}

/** Applies the setting to this process's V8 (every isolate it has or will create); returns the flag set, if any. */
export function applyHeapGrowth(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const flag = heapGrowthFlag(env);
  if (flag !== undefined) v8.setFlagsFromString(flag);
  return flag;
}
