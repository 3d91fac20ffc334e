/** The chart's figures as a table (what screen readers and keyboards use), each withheld cell with its reason in words. */
import { formatNumber } from '../../components/format';
import { type Dimension, type FigureRow, suppressionReason } from './analytics-data';

export function UsageTable({ rows, dimension, measureLabel, itemLabel }: { rows: FigureRow[]; dimension: Dimension; measureLabel: string; itemLabel(item: string): string }) {
  return (
    <div className="table-wrap">
      <table className="small" data-testid="usage-table">
        <caption className="visually-hidden">
          {measureLabel} per {dimension === 'sources' ? 'source' : 'country'} and period
        </caption>
        <thead>
          <tr>
            <th scope="col">{dimension === 'sources' ? 'Source' : 'Country'}</th>
            <th scope="col">Period (UTC)</th>
            <th scope="col">{measureLabel}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const reason = suppressionReason(r);
            return (
              <tr key={`${r.item} ${r.periodStart}`}>
                <td>{itemLabel(r.item)}</td>
                <td>{r.periodStart === r.periodEnd ? r.periodStart : `${r.periodStart} – ${r.periodEnd}`}</td>
                <td className={r.suppressed ? 'suppressed' : undefined} title={reason ?? undefined}>
                  {r.value === null ? 'withheld' : formatNumber(r.value)}
                  {reason && <span className="suppressed-reason"> ({reason})</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
