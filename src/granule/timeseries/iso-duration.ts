/**
 * ISO 8601 durations for time-series steps (`P1D`, `PT1H`, `P1W`, `P1M`, `P1Y`, `PT0.5S`,
 * `P1Y2M3DT4H5M6.5S`), with the calendar semantics of Python's isodate + datetime: years and
 * months move the calendar date (the day is clamped to the month's length: Jan 31 + P1M = Feb 28
 * or 29), then weeks, days, hours, minutes and seconds add a fixed number of microseconds.
 *
 * Rejected with a message (the caller answers 400): anything that is not this grammar, a sign
 * (negative durations), fractional years or months (no calendar meaning), and zero durations —
 * titiler-cmr loops forever on those.
 */
import { fromFields, toFields, daysInMonth, type IsoDateTime } from './iso-datetime.ts';

export interface IsoDuration {
  /** Calendar months (years × 12 + months). */
  months: number;
  /** Fixed part in microseconds (weeks, days, hours, minutes, seconds). */
  micros: bigint;
}

const GRAMMAR =
  /^P(?!$)(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?=\d)(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

const US = { W: 604_800_000_000, D: 86_400_000_000, H: 3_600_000_000, M: 60_000_000, S: 1_000_000 } as const;

/** A duration, or an error message. */
export function parseIsoDuration(text: string): IsoDuration | string {
  const t = text.trim();
  if (/^[-+]/.test(t)) return `'${text}' is not a valid step: negative or signed durations are not allowed`;
  const m = GRAMMAR.exec(t.toUpperCase());
  if (!m) return `'${text}' is not a valid ISO 8601 duration (e.g. P1D, PT1H, P1W, P1M, P1Y, PT0.5S)`;
  const num = (s: string | undefined): number => (s === undefined ? 0 : Number(s.replace(',', '.')));
  const [years, months] = [num(m[1]), num(m[2])];
  if (!Number.isInteger(years) || !Number.isInteger(months)) return `'${text}' is not a valid step: years and months must be whole numbers`;
  // Fractions of the fixed units become whole microseconds (Python's timedelta rounds the same way).
  let micros = 0n;
  const parts: Array<[string | undefined, number]> = [
    [m[3], US.W],
    [m[4], US.D],
    [m[5], US.H],
    [m[6], US.M],
    [m[7], US.S],
  ];
  for (const [value, unit] of parts) {
    if (value === undefined) continue;
    const [whole, frac = ''] = value.replace(',', '.').split('.');
    micros += BigInt(whole!) * BigInt(unit) + BigInt(Math.round(Number(`0.${frac || '0'}`) * unit));
  }
  const duration = { months: years * 12 + months, micros };
  if (duration.months === 0 && duration.micros === 0n) return `'${text}' is not a valid step: the duration is zero`;
  return duration;
}

/** `t + d`, keeping t's offset (a fixed-offset wall-clock sum, as Python does). */
export function addDuration(t: IsoDateTime, d: IsoDuration): IsoDateTime {
  let wall = t.wall;
  if (d.months !== 0) {
    const f = toFields(wall);
    const total = f.year * 12 + (f.month - 1) + d.months;
    const year = Math.floor(total / 12);
    const month = (total % 12) + 1;
    if (year > 9999) return { wall: BigInt(Number.MAX_SAFE_INTEGER) * 1_000_000n, offset: t.offset }; // past Python's range: beyond any end
    wall = fromFields({ year, month, day: Math.min(f.day, daysInMonth(year, month)), timeOfDay: f.timeOfDay });
  }
  return { wall: wall + d.micros, offset: t.offset };
}
