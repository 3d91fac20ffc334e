/**
 * The privacy rule of every analytics answer (issue #35 item 4): a value built from fewer than
 * MIN_DISTINCT_ACCOUNTS distinct accounts is withheld.
 *
 * The rule is applied to the finest cell, one dimension on one UTC day, BEFORE anything is rolled
 * up: a day cell whose measure comes from fewer than 5 accounts adds nothing to any week, month or
 * range, and every answer is a sum of released day cells only. So two overlapping answers (1-10
 * March and 2-10 March) differ by released day cells only: their difference is itself a value of
 * at least 5 accounts, never the activity of the one account of 1 March. Complementary suppression
 * (withholding extra cells so a withheld one cannot be derived) would keep more data visible, but
 * it must consider every combination of ranges and granularities a caller could ask for; a
 * per-day rule needs no such search and holds for any range by construction. The cost: a source
 * used by few accounts a day shows little even over a month; `suppressed` says when a value is
 * partial.
 *
 * Across dimensions the same holds through one grid: hits, documents and resolutions are summed,
 * for a source, a country, a document or a match type alike, from released cells of
 * (source, country, detail, day) only (analytics-events.ts `grid`), so a country minus its
 * released sources, or a source minus its top documents, is again a sum of released cells.
 */
import type { SuppressibleCount } from './analytics.schema.js';

export const MIN_DISTINCT_ACCOUNTS = 5;

/** One measure of one dimension on one day: its sum, and how many distinct accounts made it. */
export interface DayMeasure {
  sum: number;
  accounts: number;
}

/** Whether a day cell may be shown. */
export function released(cell: DayMeasure): boolean {
  return cell.accounts >= MIN_DISTINCT_ACCOUNTS;
}

/**
 * A period's value from its day cells: the sum of the released ones. `suppressed` when some day
 * had activity that was withheld; `value` null when nothing of the period can be shown although
 * something happened (0 when nothing happened at all).
 */
export function rollUp(days: readonly DayMeasure[]): SuppressibleCount {
  let value = 0;
  let shown = 0;
  let withheld = false;
  for (const day of days) {
    if (day.accounts === 0) continue;
    if (released(day)) {
      value += day.sum;
      shown++;
    } else withheld = true;
  }
  return { value: shown === 0 && withheld ? null : value, suppressed: withheld };
}

/** The released cells of a group on a day, summed: their sum, how many were shown, how many withheld. */
export interface ReleasedPart {
  sum: number;
  shown: number;
  withheld: number;
}

/** A period's value from its days' released parts (the rule of `rollUp`, the cells judged in SQL). */
export function rollUpReleased(parts: readonly ReleasedPart[]): SuppressibleCount {
  let value = 0;
  let shown = 0;
  let withheld = false;
  for (const part of parts) {
    value += part.sum;
    shown += part.shown;
    if (part.withheld > 0) withheld = true;
  }
  return { value: shown === 0 && withheld ? null : value, suppressed: withheld };
}

/** Distinct accounts of a period (counted over its released days only), under the same rule. */
export function distinctAccountsValue(accounts: number, anyWithheld: boolean, anyActivity: boolean): SuppressibleCount {
  if (accounts === 0) return { value: anyActivity ? null : 0, suppressed: anyWithheld };
  return { value: accounts, suppressed: anyWithheld };
}
