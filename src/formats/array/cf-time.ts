/**
 * CF time coordinates: `units` "<unit> since <epoch>" and the CF calendars, both ways — an ISO
 * datetime given in `sel` to a number in the axis' units, and an axis value to an ISO datetime
 * (listings). Day numbers are Julian Day Numbers for the real-world calendars (standard/gregorian
 * switch from Julian to Gregorian at 1582-10-15, as CF and cftime define it) and plain counts for
 * the idealised ones (noleap/365_day, all_leap/366_day, 360_day).
 */
import { Errors } from '../../errors.ts';

export const CF_CALENDARS = ['standard', 'gregorian', 'proleptic_gregorian', 'noleap', '365_day', 'all_leap', '366_day', '360_day', 'julian'] as const;
export type CfCalendar = (typeof CF_CALENDARS)[number];

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
  /** Milliseconds since midnight. */
  ms: number;
}

export interface CfTimeAxis {
  calendar: CfCalendar;
  /** Milliseconds per unit. */
  unitMs: number;
  unit: string;
  /** Day number of the epoch in the calendar, and the epoch's milliseconds since midnight (UTC). */
  epochDay: number;
  epochMs: number;
}

const UNIT_MS: Record<string, number> = {
  microseconds: 1e-3,
  microsecond: 1e-3,
  us: 1e-3,
  milliseconds: 1,
  millisecond: 1,
  ms: 1,
  seconds: 1000,
  second: 1000,
  secs: 1000,
  sec: 1000,
  s: 1000,
  minutes: 60_000,
  minute: 60_000,
  mins: 60_000,
  min: 60_000,
  hours: 3_600_000,
  hour: 3_600_000,
  hrs: 3_600_000,
  hr: 3_600_000,
  h: 3_600_000,
  days: 86_400_000,
  day: 86_400_000,
  d: 86_400_000,
  weeks: 7 * 86_400_000,
  week: 7 * 86_400_000,
};

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const DATETIME =
  /^\s*([+-]?\d{1,6})(?:-(\d{1,2})(?:-(\d{1,2})(?:[T ](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(\.\d+)?)?)?)?)?)?\s*(Z|UTC|GMT|[+-]\d{1,2}(?::?\d{2})?)?\s*$/i;

/** A datetime string (ISO 8601 or CF's `1981-1-1 0:0:0`), with its UTC offset in milliseconds. */
export function parseDateTime(text: string): (CalendarDate & { offsetMs: number }) | null {
  const m = DATETIME.exec(text);
  if (m === null) return null;
  const year = Number(m[1]);
  const month = m[2] !== undefined ? Number(m[2]) : 1;
  const day = m[3] !== undefined ? Number(m[3]) : 1;
  const h = m[4] !== undefined ? Number(m[4]) : 0;
  const mi = m[5] !== undefined ? Number(m[5]) : 0;
  const s = m[6] !== undefined ? Number(m[6]) : 0;
  const frac = m[7] !== undefined ? Number(m[7]) : 0;
  if (month < 1 || month > 12 || day < 1 || day > 31 || h > 24 || mi > 59 || s > 60) return null;
  let offsetMs = 0;
  const tz = m[8];
  if (tz !== undefined && /^[+-]/.test(tz)) {
    const digits = tz.slice(1).replace(':', '');
    const oh = Number(digits.length <= 2 ? digits : digits.slice(0, -2));
    const om = digits.length <= 2 ? 0 : Number(digits.slice(-2));
    offsetMs = (tz[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return { year, month, day, ms: ((h * 60 + mi) * 60 + s + frac) * 1000, offsetMs };
}

const isCalendar = (c: string): c is CfCalendar => (CF_CALENDARS as readonly string[]).includes(c);

/** The time axis of a coordinate's `units`/`calendar`, or null when `units` is not "… since …". */
export function cfTimeAxis(units: unknown, calendar: unknown): CfTimeAxis | null {
  if (typeof units !== 'string') return null;
  const m = /^\s*(\w+)\s+since\s+(.+)$/i.exec(units);
  if (m === null) return null;
  const unitMs = UNIT_MS[m[1].toLowerCase()];
  const cal = typeof calendar === 'string' ? calendar.trim().toLowerCase() : 'standard';
  if (!isCalendar(cal)) throw Errors.unsupported(`Unsupported CF calendar '${String(calendar)}' (supported: ${CF_CALENDARS.join(', ')})`);
  if (unitMs === undefined) return null;
  const epoch = parseDateTime(m[2]);
  if (epoch === null) return null;
  return { calendar: cal, unitMs, unit: m[1].toLowerCase(), epochDay: dayNumber(epoch, cal), epochMs: epoch.ms - epoch.offsetMs };
}

/** The axis value (in its units) of an ISO datetime string; throws BadRequest when it is not a datetime or not a day of the calendar. */
export function timeToAxisValue(axis: CfTimeAxis, text: string): number {
  const d = parseDateTime(text);
  if (d === null) throw Errors.badRequest(`'${text}' is not a datetime (expected ISO 8601, e.g. 2020-01-31T12:00:00)`);
  if (d.day > monthLength(d.year, d.month, axis.calendar)) {
    throw Errors.badRequest(`'${text}' is not a date of the ${axis.calendar} calendar`);
  }
  const ms = (dayNumber(d, axis.calendar) - axis.epochDay) * 86_400_000 + (d.ms - d.offsetMs) - axis.epochMs;
  return ms / axis.unitMs;
}

/** The ISO datetime (no zone, like numpy's datetime64) of an axis value. */
export function axisValueToTime(axis: CfTimeAxis, value: number): string {
  const totalMs = Math.round(value * axis.unitMs + axis.epochMs);
  const dayOffset = Math.floor(totalMs / 86_400_000);
  const ms = totalMs - dayOffset * 86_400_000;
  const d = dateOfDayNumber(axis.epochDay + dayOffset, axis.calendar);
  const pad = (v: number, w = 2): string => String(v).padStart(w, '0');
  const sec = Math.floor(ms / 1000);
  const frac = ms - sec * 1000;
  const year = d.year < 0 ? `-${pad(-d.year, 4)}` : pad(d.year, 4);
  const time = `${pad(Math.floor(sec / 3600))}:${pad(Math.floor(sec / 60) % 60)}:${pad(sec % 60)}${frac ? `.${pad(frac, 3)}` : ''}`;
  return `${year}-${pad(d.month)}-${pad(d.day)}T${time}`;
}

const gregorianLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const julianLeap = (y: number): boolean => y % 4 === 0;

function monthLength(year: number, month: number, cal: CfCalendar): number {
  if (cal === '360_day') return 30;
  if (month !== 2) return MONTH_DAYS[month - 1];
  switch (cal) {
    case 'noleap':
    case '365_day':
      return 28;
    case 'all_leap':
    case '366_day':
      return 29;
    case 'julian':
      return julianLeap(year) ? 29 : 28;
    case 'standard':
    case 'gregorian':
      return (year < 1582 ? julianLeap(year) : gregorianLeap(year)) ? 29 : 28;
    default:
      return gregorianLeap(year) ? 29 : 28;
  }
}

/** Julian Day Number of a proleptic Gregorian date. */
function jdnGregorian(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) - 32045;
}

/** Julian Day Number of a Julian-calendar date. */
function jdnJulian(y: number, m: number, d: number): number {
  const a = Math.floor((14 - m) / 12);
  const yy = y + 4800 - a;
  const mm = m + 12 * a - 3;
  return d + Math.floor((153 * mm + 2) / 5) + 365 * yy + Math.floor(yy / 4) - 32083;
}

const GREGORIAN_START = 2299161; // JDN of 1582-10-15

function cumulativeDays(month: number, leap: boolean): number {
  let n = 0;
  for (let i = 0; i < month - 1; i++) n += MONTH_DAYS[i];
  return n + (leap && month > 2 ? 1 : 0);
}

function dayNumber(d: CalendarDate, cal: CfCalendar): number {
  switch (cal) {
    case 'proleptic_gregorian':
      return jdnGregorian(d.year, d.month, d.day);
    case 'julian':
      return jdnJulian(d.year, d.month, d.day);
    case 'standard':
    case 'gregorian': {
      const g = jdnGregorian(d.year, d.month, d.day);
      return g >= GREGORIAN_START ? g : jdnJulian(d.year, d.month, d.day);
    }
    case 'noleap':
    case '365_day':
      return d.year * 365 + cumulativeDays(d.month, false) + d.day - 1;
    case 'all_leap':
    case '366_day':
      return d.year * 366 + cumulativeDays(d.month, true) + d.day - 1;
    case '360_day':
      return d.year * 360 + (d.month - 1) * 30 + d.day - 1;
  }
}

function fromJdn(jdn: number, gregorian: boolean): { year: number; month: number; day: number } {
  let c: number;
  let e: number;
  if (gregorian) {
    const a = jdn + 32044;
    const b = Math.floor((4 * a + 3) / 146097);
    c = a - Math.floor((146097 * b) / 4);
    const dd = Math.floor((4 * c + 3) / 1461);
    e = c - Math.floor((1461 * dd) / 4);
    const m = Math.floor((5 * e + 2) / 153);
    return { day: e - Math.floor((153 * m + 2) / 5) + 1, month: m + 3 - 12 * Math.floor(m / 10), year: 100 * b + dd - 4800 + Math.floor(m / 10) };
  }
  c = jdn + 32082;
  const dd = Math.floor((4 * c + 3) / 1461);
  e = c - Math.floor((1461 * dd) / 4);
  const m = Math.floor((5 * e + 2) / 153);
  return { day: e - Math.floor((153 * m + 2) / 5) + 1, month: m + 3 - 12 * Math.floor(m / 10), year: dd - 4800 + Math.floor(m / 10) };
}

function fromFixedYear(n: number, yearDays: number, leap: boolean): { year: number; month: number; day: number } {
  const year = Math.floor(n / yearDays);
  let rest = n - year * yearDays;
  let month = 1;
  for (; month < 12; month++) {
    const len = month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
    if (rest < len) break;
    rest -= len;
  }
  return { year, month, day: rest + 1 };
}

function dateOfDayNumber(n: number, cal: CfCalendar): { year: number; month: number; day: number } {
  switch (cal) {
    case 'proleptic_gregorian':
      return fromJdn(n, true);
    case 'julian':
      return fromJdn(n, false);
    case 'standard':
    case 'gregorian':
      return fromJdn(n, n >= GREGORIAN_START);
    case 'noleap':
    case '365_day':
      return fromFixedYear(n, 365, false);
    case 'all_leap':
    case '366_day':
      return fromFixedYear(n, 366, true);
    case '360_day': {
      const year = Math.floor(n / 360);
      const rest = n - year * 360;
      return { year, month: Math.floor(rest / 30) + 1, day: (rest % 30) + 1 };
    }
  }
}
