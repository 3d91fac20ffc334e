/**
 * The citing documents per year as a small bar chart: one column per year from the first to the
 * last (years without a citing document stand at 0), undated last. Plain markup, no chart
 * library: each column is a list item whose text reads "2021: 3 citing documents"; the bars are
 * decoration.
 */
import type { CSSProperties } from 'react';
import { timelineColumns, type YearCount } from './timeline-columns';

/** Columns that fit a phone's width; a longer timeline scrolls sideways inside its box (then keyboard-focusable, so it can be scrolled without a mouse). */
const FITTING_COLUMNS = 12;

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
