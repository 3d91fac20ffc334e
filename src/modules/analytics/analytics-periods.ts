/** Periods of a range at a granularity, in UTC: days, ISO weeks (from Monday), calendar months. */
import type { Granularity } from './analytics.schema.js';

const DAY_MS = 86_400_000;

export interface Period {
  /** The period's own start (a Monday, the 1st), also before the range: the key day cells group under. */
  key: string;
  /** The part of the period inside the range. */
  start: string;
  end: string;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The start of the period holding `day`. */
export function periodKey(day: string, granularity: Granularity): string {
  if (granularity === 'DAY') return day;
  if (granularity === 'MONTH') return `${day.slice(0, 7)}-01`;
  const t = ms(day);
  const weekday = (new Date(t).getUTCDay() + 6) % 7; // Monday 0
  return iso(t - weekday * DAY_MS);
}

/** Every period of [from, to], clipped to it, in order. */
export function periodsOf(from: string, to: string, granularity: Granularity): Period[] {
  const periods: Period[] = [];
  for (let day = from; day <= to; ) {
    const key = periodKey(day, granularity);
    let next: string;
    if (granularity === 'DAY') next = iso(ms(day) + DAY_MS);
    else if (granularity === 'WEEK') next = iso(ms(key) + 7 * DAY_MS);
    else {
      const d = new Date(ms(key));
      next = iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
    }
    const lastDay = iso(ms(next) - DAY_MS);
    periods.push({ key, start: day, end: lastDay < to ? lastDay : to });
    day = next;
  }
  return periods;
}
