/**
 * Turning a time-series request's `temporal` (+ `step`, `temporal_mode`) into its steps, as
 * titiler-cmr does (spec titiler-cmr §5.1). `temporal` is a comma list; each element is
 * - a datetime → one step at that instant, whatever the step;
 * - `start/end`, `start/` or `start/..` with a step → generated intervals or points (open end = now);
 * - `start/end` without a step → one step per granule CMR finds in the range, at the midpoint of
 *   its RangeDateTime (`granuleTimes`, supplied by the caller);
 * - an open start (`../end`, `/end`) → error.
 * Step strings are normalised as CMR `temporal` values (an instant `t` becomes `t/t`), and are
 * the keys of the time-series results.
 *
 * Counting comes before materialising: a request for millions of steps is answered with the
 * cap's message without building them (fixed durations are counted arithmetically).
 */
import { Errors } from '../../errors.ts';
import { normalizeTemporal } from '../../search/query-params.ts';
import { formatIsoDateTime, fromEpochMs, instant, parseIsoDateTime, type IsoDateTime } from './iso-datetime.ts';
import { addDuration, parseIsoDuration, type IsoDuration } from './iso-duration.ts';

export type TemporalMode = 'point' | 'interval';

export type TemporalElement = { kind: 'instant'; at: IsoDateTime } | { kind: 'range'; start: IsoDateTime; end: IsoDateTime | null };

export const OPEN_START_MESSAGE = 'you must provide a temporal interval with a defined start time or a list of comma-separated temporal strings';

/** titiler-cmr's 400 text for more steps than the cap. */
export const tooManyStepsMessage = (count: number, cap: number): string =>
  `this request (${count}) exceeds the maximum number of distinct time series points/intervals of ${cap}`;

const isOpen = (s: string): boolean => s.trim() === '' || s.trim() === '..';

/** Parses the comma list (400 "<temporal> is an invalid temporal input" on a malformed element). */
export function parseTemporalList(temporal: string): TemporalElement[] {
  const invalid = () => Errors.badRequest(`${temporal} is an invalid temporal input`, { context: { parameter: 'temporal' } });
  return temporal.split(',').map((element): TemporalElement => {
    const parts = element.split('/');
    if (parts.length === 1) {
      const at = parseIsoDateTime(element);
      if (at === null) throw invalid();
      return { kind: 'instant', at };
    }
    if (parts.length !== 2) throw invalid();
    const [a, b] = parts as [string, string];
    if (isOpen(a)) {
      if (!isOpen(b) && parseIsoDateTime(b) === null) throw invalid();
      throw Errors.badRequest(OPEN_START_MESSAGE, { context: { parameter: 'temporal' } });
    }
    const start = parseIsoDateTime(a);
    const end = isOpen(b) ? null : parseIsoDateTime(b);
    if (start === null || (!isOpen(b) && end === null)) throw invalid();
    if (end !== null && (start.offset === null) !== (end.offset === null)) {
      throw Errors.badRequest(`${temporal}: start and end must both carry a UTC offset or both be naive`, { context: { parameter: 'temporal' } });
    }
    if (end !== null && instant(end) < instant(start)) {
      throw Errors.badRequest(`${temporal}: the interval ends before it starts`, { context: { parameter: 'temporal' } });
    }
    return { kind: 'range', start, end };
  });
}

/** The open end of a range: now, in UTC (naive when the start is naive, as a comparable value). */
function resolveEnd(start: IsoDateTime, end: IsoDateTime | null, nowMs: number): IsoDateTime {
  if (end !== null) return end;
  const now = fromEpochMs(nowMs);
  return start.offset === null ? { wall: now.wall, offset: null } : now;
}

const ONE_SECOND = 1_000_000n;

/** Steps of one range (generator: the caller counts or collects). */
function* rangeSteps(start: IsoDateTime, end: IsoDateTime, step: IsoDuration, mode: TemporalMode): Generator<string> {
  const endAt = instant(end);
  const small = instant(addDuration(start, step)) - instant(start) <= ONE_SECOND;
  const nudge = small ? 1n : ONE_SECOND;
  let current = start;
  let emitted = false;
  while (instant(current) < endAt) {
    const next = addDuration(current, step);
    if (mode === 'point') {
      yield formatIsoDateTime(current);
      emitted = true;
      current = next;
      if (instant(current) === endAt) yield formatIsoDateTime(end);
      continue;
    }
    emitted = true;
    if (instant(next) >= endAt) {
      // Python's min(current + step, end) keeps the first of two equal values
      yield `${formatIsoDateTime(current)}/${formatIsoDateTime(instant(next) === endAt ? next : end)}`;
      return;
    }
    yield `${formatIsoDateTime(current)}/${formatIsoDateTime({ wall: next.wall - nudge, offset: next.offset })}`;
    current = next;
  }
  if (!emitted) yield `${formatIsoDateTime(start)}/${formatIsoDateTime(end)}`;
}

/** Number of steps rangeSteps yields, without formatting them (arithmetic for fixed durations). */
function countRangeSteps(start: IsoDateTime, end: IsoDateTime, step: IsoDuration, mode: TemporalMode): number {
  const span = instant(end) - instant(start);
  if (span <= 0n) return 1;
  if (step.months === 0) {
    const whole = span / step.micros;
    const exact = span % step.micros === 0n;
    const n = Number(exact ? whole : whole + 1n);
    return mode === 'point' && exact ? n + 1 : n;
  }
  let n = 0;
  for (const _ of rangeSteps(start, end, step, mode)) n++;
  return n;
}

/** Begin and end of a granule's RangeDateTime (end may be missing). */
export interface GranuleTime {
  start: string | null;
  end: string | null;
}

export interface StepPlanInput {
  temporal: string;
  step?: string;
  mode: TemporalMode;
  /** Most steps allowed (titiler-cmr's TIME_SERIES_MAX_REQUESTS, 995). */
  maxSteps: number;
  /** "Now" for open ends, ms since 1970 (injectable for tests). */
  nowMs: number;
  /** Granules of the collection within `start/end` (ISO strings), for ranges without a step. */
  granuleTimes(temporal: string): Promise<GranuleTime[]>;
}

/** Midpoint of a granule's time range, Python's `start + (end - start) / 2` (microseconds, half-even). */
export function granuleMidpoint(g: GranuleTime): string | null {
  if (g.start === null) return null;
  const start = parseIsoDateTime(g.start);
  if (start === null) return null;
  const end = g.end === null ? null : parseIsoDateTime(g.end);
  if (end === null) return formatIsoDateTime(start);
  const diff = instant(end) - instant(start);
  let half = diff / 2n;
  if (diff % 2n !== 0n && half % 2n !== 0n) half += diff < 0n ? -1n : 1n;
  return formatIsoDateTime({ wall: start.wall + half, offset: start.offset });
}

/** The normalised step strings, in request order; 400 for bad input or more than `maxSteps`. */
export async function planSteps(input: StepPlanInput): Promise<string[]> {
  const elements = parseTemporalList(input.temporal);
  let duration: IsoDuration | undefined;
  if (input.step !== undefined && input.step.trim() !== '') {
    const parsed = parseIsoDuration(input.step);
    if (typeof parsed === 'string') throw Errors.badRequest(parsed, { context: { parameter: 'step' } });
    duration = parsed;
  }
  // Count first: a cap violation must not build (or search for) anything.
  let count = 0;
  for (const e of elements) {
    if (e.kind === 'instant') count++;
    else if (duration !== undefined) count += countRangeSteps(e.start, resolveEnd(e.start, e.end, input.nowMs), duration, input.mode);
  }
  if (count > input.maxSteps) throw Errors.badRequest(tooManyStepsMessage(count, input.maxSteps));

  const steps: string[] = [];
  for (const e of elements) {
    if (e.kind === 'instant') {
      steps.push(formatIsoDateTime(e.at));
      continue;
    }
    const end = resolveEnd(e.start, e.end, input.nowMs);
    if (duration !== undefined) {
      steps.push(...rangeSteps(e.start, end, duration, input.mode));
      continue;
    }
    for (const g of await input.granuleTimes(`${formatIsoDateTime(e.start)}/${formatIsoDateTime(end)}`)) {
      const mid = granuleMidpoint(g);
      if (mid !== null) steps.push(mid);
    }
  }
  if (steps.length > input.maxSteps) throw Errors.badRequest(tooManyStepsMessage(steps.length, input.maxSteps));
  return steps.map(normalizeTemporal);
}
