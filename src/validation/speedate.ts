/** `datetime.date` parsing after speedate, the parser pydantic-core uses, with its error messages. */
import { type Coerced, DATE_INEXACT, DATE_TYPE, fail, ok, type PydanticErrorSpec } from './pydantic-errors.js';

class SpeedateError extends Error {}

const SPEEDATE = {
  tooShort: 'input is too short',
  extra: 'unexpected extra characters at the end of the input',
  dateTimeSep: 'invalid datetime separator, expected `T`, `t`, `_` or space',
  dateSep: 'invalid date separator, expected `-`',
  year: 'invalid character in year',
  month: 'invalid character in month',
  day: 'invalid character in day',
  monthRange: 'month value is outside expected range of 1-12',
  dayRange: 'day value is outside expected range',
  timeSep: 'invalid time separator, expected `:`',
  hour: 'invalid character in hour',
  minute: 'invalid character in minute',
  second: 'invalid character in second',
  fraction: 'invalid character in second fraction',
  fractionMissing: 'second fraction digits missing after `.`',
  fractionTooLong: 'second fraction value is more than 6 digits long',
  tzSign: 'invalid timezone sign',
  tzHour: 'invalid timezone hour',
  tzMinute: 'invalid timezone minute',
  tzMinuteRange: 'timezone minute value is outside expected range of 0-59',
  tzRange: 'timezone offset must be less than 24 hours',
  hourRange: 'hour value is outside expected range of 0-23',
  minuteRange: 'minute value is outside expected range of 0-59',
  secondRange: 'second value is outside expected range of 0-59',
  dateTooSmall: 'dates before 1600 are not supported as unix timestamps',
  dateTooLarge: 'dates after 9999 are not supported as unix timestamps',
} as const;

interface SimpleDate {
  year: number;
  month: number;
  day: number;
}

function digitAt(s: string, i: number, message: string): number {
  const c = s.charCodeAt(i);
  if (!(c >= 48 && c <= 57)) throw new SpeedateError(message);
  return c - 48;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** speedate's Date::parse_bytes_partial: the first ten characters as YYYY-MM-DD. */
function parseDatePart(s: string): SimpleDate {
  if (s.length < 10) throw new SpeedateError(SPEEDATE.tooShort);
  let year = 0;
  for (let i = 0; i < 4; i++) year = year * 10 + digitAt(s, i, SPEEDATE.year);
  if (s[4] !== '-') throw new SpeedateError(SPEEDATE.dateSep);
  const month = digitAt(s, 5, SPEEDATE.month) * 10 + digitAt(s, 6, SPEEDATE.month);
  if (s[7] !== '-') throw new SpeedateError(SPEEDATE.dateSep);
  const day = digitAt(s, 8, SPEEDATE.day) * 10 + digitAt(s, 9, SPEEDATE.day);
  if (month < 1 || month > 12) throw new SpeedateError(SPEEDATE.monthRange);
  if (day < 1 || day > daysInMonth(year, month)) throw new SpeedateError(SPEEDATE.dayRange);
  return { year, month, day };
}

/** speedate's time parser from `start`: HH:MM[:SS[.ffffff]][Z|±HH[:]MM]. Returns whether it is midnight. */
function parseTimePart(s: string, start: number): boolean {
  if (s.length - start < 5) throw new SpeedateError(SPEEDATE.tooShort);
  const hour = digitAt(s, start, SPEEDATE.hour) * 10 + digitAt(s, start + 1, SPEEDATE.hour);
  if (s[start + 2] !== ':') throw new SpeedateError(SPEEDATE.timeSep);
  const minute = digitAt(s, start + 3, SPEEDATE.minute) * 10 + digitAt(s, start + 4, SPEEDATE.minute);
  let i = start + 5;
  let second = 0;
  let fraction = 0;
  if (s[i] === ':') {
    second = digitAt(s, i + 1, SPEEDATE.second) * 10 + digitAt(s, i + 2, SPEEDATE.second);
    i += 3;
    if (s[i] === '.' || s[i] === ',') {
      i += 1;
      const digits = /^\d*/.exec(s.slice(i))![0];
      if (digits.length === 0) throw new SpeedateError(SPEEDATE.fractionMissing);
      if (digits.length > 6) throw new SpeedateError(SPEEDATE.fractionTooLong);
      fraction = Number(digits);
      i += digits.length;
    }
  }
  if (hour > 23) throw new SpeedateError(SPEEDATE.hourRange);
  if (minute > 59) throw new SpeedateError(SPEEDATE.minuteRange);
  if (second > 59) throw new SpeedateError(SPEEDATE.secondRange);
  if (i < s.length) {
    const sign = s[i];
    if (sign === 'Z' || sign === 'z') {
      i += 1;
    } else if (sign === '+' || sign === '-' || sign === '\u2212') {
      const tzHour = digitAt(s, i + 1, SPEEDATE.tzHour) * 10 + digitAt(s, i + 2, SPEEDATE.tzHour);
      i += 3;
      if (s[i] === ':') i += 1;
      const tzMinute = digitAt(s, i, SPEEDATE.tzMinute) * 10 + digitAt(s, i + 1, SPEEDATE.tzMinute);
      i += 2;
      if (tzMinute > 59) throw new SpeedateError(SPEEDATE.tzMinuteRange);
      if (tzHour * 60 + tzMinute >= 24 * 60) throw new SpeedateError(SPEEDATE.tzRange);
    } else {
      throw new SpeedateError(SPEEDATE.tzSign);
    }
    if (i < s.length) throw new SpeedateError(SPEEDATE.extra);
  }
  return hour === 0 && minute === 0 && second === 0 && fraction === 0;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const formatDate = (d: SimpleDate) => `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`;

/** A unix timestamp (seconds, or milliseconds above 2e10, as speedate reads it) as a date at midnight UTC. */
function dateFromTimestamp(timestamp: number): Coerced<string> {
  const ms = Math.abs(timestamp) > 2e10 ? timestamp : timestamp * 1000;
  if (ms < Date.UTC(1600, 0, 1)) return fail(dateParsing(SPEEDATE.dateTooSmall));
  if (ms > Date.UTC(9999, 11, 31, 23, 59, 59, 999)) return fail(dateParsing(SPEEDATE.dateTooLarge));
  const at = new Date(ms);
  if (ms % 86_400_000 !== 0) return fail(DATE_INEXACT);
  return ok(formatDate({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() }));
}

function dateParsing(error: string): PydanticErrorSpec {
  return { type: 'date_from_datetime_parsing', msg: `Input should be a valid date or datetime, ${error}`, ctx: { error } };
}

export function coerceDate(value: unknown): Coerced<string> {
  if (typeof value === 'number') return Number.isFinite(value) ? dateFromTimestamp(value) : fail(DATE_TYPE);
  if (typeof value !== 'string') return fail(DATE_TYPE);
  // 1. a plain date
  try {
    const date = parseDatePart(value);
    if (value.length === 10) return ok(formatDate(date));
  } catch {
    // fall through to the datetime attempt, whose error is the one pydantic reports
  }
  // 2. a datetime at midnight, or a timestamp
  try {
    const date = parseDatePart(value);
    const sep = value[10];
    if (sep !== 'T' && sep !== 't' && sep !== ' ' && sep !== '_') throw new SpeedateError(SPEEDATE.dateTimeSep);
    return parseTimePart(value, 11) ? ok(formatDate(date)) : fail(DATE_INEXACT);
  } catch (error) {
    if (/^[+-]?\d+(\.\d+)?$/.test(value)) return dateFromTimestamp(Number(value));
    return fail(dateParsing((error as Error).message));
  }
}
