/**
 * Date and date-time formats as the schemas check them (ajv-formats "full"
 * mode, RFC 3339), plus epoch conversion for filtering. Kept here rather than
 * borrowed from ajv so the mock can also turn a valid value into a time.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt\s](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

function calendarDate(value: string): CalendarDate | undefined {
  const m = DATE.exec(value);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const maxDay = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month] ?? 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= maxDay ? { year, month, day } : undefined;
}

/** Milliseconds since the epoch at 00:00 UTC of a calendar date (years 0-99 too, which Date.UTC would shift). */
function utcMidnight({ year, month, day }: CalendarDate): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}

export function isDate(value: string): boolean {
  return calendarDate(value) !== undefined;
}

/** Start of the day in UTC, or undefined when the value is not an ISO 8601 calendar date. */
export function dateStartMs(value: string): number | undefined {
  const date = calendarDate(value);
  return date ? utcMidnight(date) : undefined;
}

function isLeapSecond(hour: number, minute: number, offsetMinutes: number): boolean {
  const utcMinutes = (((hour * 60 + minute - offsetMinutes) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

/** Epoch milliseconds of an RFC 3339 date-time (time zone required), or undefined when invalid. */
export function dateTimeMs(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const date = calendarDate(m[1] ?? '');
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4])];
  const sign = m[7] === '-' ? -1 : 1;
  const [tzHour, tzMinute] = [Number(m[8] ?? 0), Number(m[9] ?? 0)];
  if (!date || tzHour > 23 || tzMinute > 59 || hour > 23 || minute > 59) return undefined;
  const offsetMinutes = m[6] ? 0 : sign * (tzHour * 60 + tzMinute);
  if (second > 60 || (second === 60 && !isLeapSecond(hour, minute, offsetMinutes))) return undefined;
  // A leap second has no epoch value of its own; it sorts as the last instant of its minute.
  const millis = second === 60 ? 59_999 : second * 1000 + Math.floor(Number(`0${m[5] ?? ''}`) * 1000);
  return utcMidnight(date) + (hour * 60 + minute - offsetMinutes) * 60_000 + millis;
}

export function isDateTime(value: string): boolean {
  return dateTimeMs(value) !== undefined;
}

/** "2025-01-02T03:04:05.000Z" without milliseconds, the shape the seed data uses. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The same instant written in local time at a fixed offset from UTC, e.g. `2025-01-01T12:00:00.000+02:00` (a fault). */
export function withUtcOffset(value: string, offsetMinutes: number): string {
  const ms = dateTimeMs(value);
  if (ms === undefined) return value;
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * A date-time written at an offset other than Z, as the same instant in UTC notation: the mock answers timestamps in
 * UTC (spec 2) and reads back what was written. A value already in Z, or not a date-time, stays as written.
 */
export function sameInstantInUtc(value: string): string {
  if (/[Zz]$/.test(value)) return value;
  const ms = dateTimeMs(value);
  return ms === undefined ? value : new Date(ms).toISOString();
}

/** The wall-clock time of a date-time with its offset dropped and read as UTC: another instant (a fault). */
export function offsetDropped(value: string): string {
  const m = /^(.*\d)(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/.exec(value);
  return m && isDateTime(value) ? `${m[1]}Z` : value;
}
