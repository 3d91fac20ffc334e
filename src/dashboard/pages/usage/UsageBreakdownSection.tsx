/**
 * Usage per API key and endpoint over a range of UTC days (the `usageBreakdown` query: the
 * caller's own rows), as a table with each key's total, and the same rows as a CSV download
 * (a Blob built from the table's rows, so the file matches what is shown).
 */
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useQuery } from '../../app/hooks';
import { formatNumber } from '../../components/format';
import { Field } from '../../components/Page';
import { Empty, QueryState } from '../../components/states';
import { UsageBreakdownDocument } from '../../gql/graphql';
import { breakdownCsv, keyLabel, totalsPerKey, type BreakdownRow } from './usage-csv';
import './usage.css';

const DAY = 24 * 3600_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function UsageBreakdownSection() {
  const today = isoDay(Date.now());
  const [draft, setDraft] = useState({ from: isoDay(Date.now() - 29 * DAY), to: today });
  const [range, setRange] = useState(draft);
  const breakdown = useQuery(UsageBreakdownDocument, range);
  const backwards = draft.from > draft.to;

  function apply(e: FormEvent) {
    e.preventDefault();
    if (!backwards) setRange(draft);
  }

  return (
    <section className="card" aria-labelledby="breakdown-title">
      <h2 id="breakdown-title">Requests per key and endpoint</h2>
      <form className="toolbar" onSubmit={apply} noValidate>
        <Field id="usage-from" label="From (UTC)">
          <input id="usage-from" type="date" value={draft.from} max={today} onChange={(e) => setDraft({ ...draft, from: e.target.value })} aria-invalid={backwards} aria-describedby={backwards ? 'usage-range-error' : undefined} />
        </Field>
        <Field id="usage-to" label="To (UTC)">
          <input id="usage-to" type="date" value={draft.to} max={today} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </Field>
        <button type="submit" className="secondary" disabled={backwards || !draft.from || !draft.to}>
          Show
        </button>
      </form>
      {backwards && (
        <p id="usage-range-error" className="form-error" role="alert">
          The start date is after the end date.
        </p>
      )}
      <QueryState result={breakdown} loadingLabel="Loading the breakdown…">
        {(data) => <BreakdownTable rows={data.usageBreakdown.rows} total={data.usageBreakdown.total} range={{ from: data.usageBreakdown.from, to: data.usageBreakdown.to }} />}
      </QueryState>
    </section>
  );
}

function BreakdownTable({ rows, total, range }: { rows: BreakdownRow[]; total: number; range: { from: string; to: string } }) {
  const csvUrl = useMemo(() => (rows.length > 0 ? URL.createObjectURL(new Blob([breakdownCsv(rows, range)], { type: 'text/csv' })) : null), [rows, range]);
  useEffect(() => () => void (csvUrl && URL.revokeObjectURL(csvUrl)), [csvUrl]);
  if (rows.length === 0) {
    return (
      <Empty title={`No requests from ${range.from} to ${range.to}`}>
        <p>Calls made with a key, by an agent or from this dashboard show up here.</p>
      </Empty>
    );
  }
  return (
    <>
      <p>
        <strong>{formatNumber(total)}</strong> requests from {range.from} to {range.to}:{' '}
        {totalsPerKey(rows)
          .map((k) => `${k.label} ${formatNumber(k.requests)}`)
          .join('; ')}
        .
      </p>
      {csvUrl && (
        <p>
          <a className="button secondary" href={csvUrl} download={`usage-${range.from}-to-${range.to}.csv`}>
            Download CSV
          </a>
        </p>
      )}
      <div className="table-wrap">
        <table className="responsive" data-testid="usage-breakdown">
          <caption className="visually-hidden">
            Requests per key and endpoint, {range.from} to {range.to} (UTC)
          </caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Endpoint</th>
              <th scope="col" className="num">
                Requests
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.key_id ?? 'none'}-${r.endpoint}`}>
                <td data-label="Key">{keyLabel(r)}</td>
                <td data-label="Endpoint">
                  <code>{r.endpoint}</code>
                </td>
                <td data-label="Requests" className="num">
                  {formatNumber(r.requests)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2}>
                Total
              </th>
              <td className="num">{formatNumber(total)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </>
  );
}
