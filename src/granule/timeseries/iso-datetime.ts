/**
 * RFC 3339 datetimes as titiler-cmr's timeseries code sees them (Python `datetime`): a wall-clock
 * time with microsecond precision and an optional fixed UTC offset (naive when absent). Wall time
 * is held as BigInt microseconds since 0001-01-01 read as UTC, so calendar arithmetic and
 * comparisons are exact over Python's whole year range (1..9999), beyond what a float of
 * microseconds could hold. Formatting is Python's `isoformat()`: `2024-10-11T00:00:00+00:00`,
 * `…T00:00:00.500000+00:00`, naive values without an offset.
 *
 * Hand-written (no date library in the dependency set does microseconds and fixed offsets with
 * Python's printing); the civil-date conversions are Howard Hinnant's well-known algorithms.
 */

export interface IsoDateTime {
  /** Wall-clock microseconds since 0001-01-01T00:00:00 (proleptic Gregorian, no leap seconds). */
  wall: bigint;
  /** UTC offset in minutes, or null for a naive datetime. */
  offset: number | null;
}

const US_PER_SECOND = 1_000_000n;
const US_PER_DAY = 86_400n * US_PER_SECOND;
/** Days from 0001-01-01 to 1970-01-01. */
const EPOCH_DAYS = 719_162n;

/** Days since 1970-01-01 of a civil date (month 1..12). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Civil date of a day count since 1970-01-01. */
export function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
export const daysInMonth = (y: number, m: number): number => (m === 2 && isLeap(y) ? 29 : MONTH_DAYS[m - 1]!);

export interface Fields {
  year: number;
  month: number;
  day: number;
  /** Microseconds since midnight. */
  timeOfDay: bigint;
}

export function toFields(wall: bigint): Fields {
  let days = wall / US_PER_DAY;
  let rest = wall % US_PER_DAY;
  if (rest < 0n) {
    rest += US_PER_DAY;
    days -= 1n;
  }
  const [year, month, day] = civilFromDays(Number(days - EPOCH_DAYS));
  return { year, month, day, timeOfDay: rest };
}

export const fromFields = (f: Fields): bigint => (BigInt(daysFromCivil(f.year, f.month, f.day)) + EPOCH_DAYS) * US_PER_DAY + f.timeOfDay;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/** Parses one datetime (date and time required; `Z`, `±HH:MM`, `±HHMM`, `±HH` or naive), or null. */
export function parseIsoDateTime(text: string): IsoDateTime | null {
  const m = RFC3339.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (year! < 1 || month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth(year!, month!)) return null;
  if (hour! > 23 || minute! > 59 || second > 59) return null;
  const micros = m[7] === undefined ? 0n : BigInt(m[7].padEnd(6, '0').slice(0, 6));
  let offset: number | null = null;
  const tz = m[8];
  if (tz !== undefined) {
    if (tz === 'Z' || tz === 'z') offset = 0;
    else {
      const digits = tz.slice(1).replace(':', '');
      const oh = Number(digits.slice(0, 2));
      const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
      if (oh > 23 || om > 59) return null;
      offset = (tz[0] === '-' ? -1 : 1) * (oh * 60 + om);
    }
  }
  const timeOfDay = BigInt(hour! * 3600 + minute! * 60 + second) * US_PER_SECOND + micros;
  return { wall: fromFields({ year: year!, month: month!, day: day!, timeOfDay }), offset };
}

/** The instant in UTC microseconds (naive values read as UTC), for comparisons. */
export const instant = (t: IsoDateTime): bigint => t.wall - BigInt((t.offset ?? 0) * 60) * US_PER_SECOND;

/** A datetime in UTC for a JavaScript time (ms since 1970), e.g. "now". */
export function fromEpochMs(ms: number): IsoDateTime {
  return { wall: BigInt(Math.round(ms)) * 1000n + EPOCH_DAYS * US_PER_DAY, offset: 0 };
}

/** Python's `datetime.isoformat()`. */
export function formatIsoDateTime(t: IsoDateTime): string {
  const f = toFields(t.wall);
  const p2 = (n: number | bigint): string => String(n).padStart(2, '0');
  const secs = f.timeOfDay / US_PER_SECOND;
  const micros = f.timeOfDay % US_PER_SECOND;
  const hh = secs / 3600n;
  const mm = (secs % 3600n) / 60n;
  const ss = secs % 60n;
  let out = `${String(f.year).padStart(4, '0')}-${p2(f.month)}-${p2(f.day)}T${p2(hh)}:${p2(mm)}:${p2(ss)}`;
  if (micros !== 0n) out += `.${String(micros).padStart(6, '0')}`;
  if (t.offset !== null) {
    const sign = t.offset < 0 ? '-' : '+';
    const a = Math.abs(t.offset);
    out += `${sign}${p2(Math.floor(a / 60))}:${p2(a % 60)}`;
  }
  return out;
}
