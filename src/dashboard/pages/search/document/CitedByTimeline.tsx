/**
 * The citing documents per year as a small bar chart: one column per year from the first to the
 * last (years without a citing document stand at 0), undated last. Plain markup, no chart
 * library: each column is a list item whose text reads "2021: 3 citing documents"; the bars are
 * decoration.
 */
import type { CSSProperties } from 'react';

export interface YearCount {
  year: number | null;
  count: number;
}

/** Longest run of years drawn; an older tail is summed into its first column's label. */
const MAX_YEARS = 60;
/** Columns that fit a phone's width; a longer timeline scrolls sideways inside its box (then keyboard-focusable, so it can be scrolled without a mouse). */
const FITTING_COLUMNS = 12;

/** Every year from the first to the last (gaps at 0), the undated count last. */
export function timelineColumns(years: readonly YearCount[]): { label: string; count: number }[] {
  const dated = years.filter((y): y is { year: number; count: number } => y.year !== null);
  const undated = years.filter((y) => y.year === null).reduce((sum, y) => sum + y.count, 0);
  const columns: { label: string; count: number }[] = [];
  if (dated.length) {
    const last = Math.max(...dated.map((y) => y.year));
    const first = Math.max(Math.min(...dated.map((y) => y.year)), last - MAX_YEARS + 1);
    const byYear = new Map(dated.map((y) => [y.year, y.count]));
    const before = dated.filter((y) => y.year < first).reduce((sum, y) => sum + y.count, 0);
    for (let year = first; year <= last; year++) {
      const label = year === first && before > 0 ? `≤ ${year}` : String(year);
      columns.push({ label, count: (byYear.get(year) ?? 0) + (year === first ? before : 0) });
    }
  }
  if (undated > 0) columns.push({ label: 'undated', count: undated });
  return columns;
}

export function CitedByTimeline({ years, filtered }: { years: readonly YearCount[]; filtered: boolean }) {
  const columns = timelineColumns(years);
  if (columns.length === 0) return null;
  const max = Math.max(1, ...columns.map((c) => c.count));
  return (
    <figure className="timeline" aria-labelledby="timeline-caption">
      <figcaption id="timeline-caption" className="small muted">
        Citing documents per year{filtered ? ' (with the filters below)' : ''}
      </figcaption>
      <ol className="timeline-bars" data-testid="cited-by-timeline" {...(columns.length > FITTING_COLUMNS ? { tabIndex: 0, 'aria-labelledby': 'timeline-caption' } : {})}>
        {columns.map((c) => (
          <li key={c.label} title={`${c.label}: ${c.count}`}>
            <span className="timeline-count" aria-hidden="true">
              {c.count || ''}
            </span>
            <span className="timeline-bar" aria-hidden="true" style={{ '--share': c.count / max } as CSSProperties} />
            <span className="timeline-year">
              {c.label}
              <span className="visually-hidden">
                : {c.count} citing document{c.count === 1 ? '' : 's'}
              </span>
            </span>
          </li>
        ))}
      </ol>
    </figure>
  );
}
