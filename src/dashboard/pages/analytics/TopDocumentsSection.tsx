/** The most fetched documents of one source over the range (documents only with released days are listed). */
import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '../../app/hooks';
import { formatNumber } from '../../components/format';
import { Field } from '../../components/Page';
import { Empty, QueryState } from '../../components/states';
import { TopDocumentsDocument } from '../../gql/graphql';
import { suppressionReason } from './analytics-data';

export function TopDocumentsSection({ sources, from, to }: { sources: string[]; from: string; to: string }) {
  const [picked, setPicked] = useState(sources[0] ?? '');
  const source = sources.includes(picked) ? picked : (sources[0] ?? '');
  const top = useQuery(TopDocumentsDocument, { source, from, to, limit: 10 }, { skip: !source });
  return (
    <section className="card" aria-labelledby="top-title">
      <h2 id="top-title">Top documents</h2>
      {sources.length === 0 ? (
        <p className="muted">Choose a source above to see its most fetched documents.</p>
      ) : (
        <>
          {sources.length > 1 && (
            <Field id="top-source" label="Source">
              <select id="top-source" value={source} onChange={(e) => setPicked(e.target.value)}>
                {sources.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </Field>
          )}
          <QueryState result={top} loadingLabel="Loading the top documents…">
            {({ topDocuments: t }) => (
              <>
                {t.documents.length === 0 ? (
                  <Empty title={`No document of ${t.source} can be shown for this range`} />
                ) : (
                  <div className="table-wrap">
                    <table className="small" data-testid="top-documents">
                      <thead>
                        <tr>
                          <th scope="col">Document</th>
                          <th scope="col">Collection</th>
                          <th scope="col">Country</th>
                          <th scope="col">Fetches</th>
                        </tr>
                      </thead>
                      <tbody>
                        {t.documents.map((d) => {
                          const reason = suppressionReason(d.fetches);
                          return (
                            <tr key={d.id}>
                              <td>
                                <Link to={`/documents?${new URLSearchParams({ source: t.source, id: d.sourceId })}`}>{d.sourceId}</Link>
                              </td>
                              <td>{d.namespace.replace('_', ' ')}</td>
                              <td>{d.country}</td>
                              <td title={reason ?? undefined}>
                                {d.fetches.value === null || d.fetches.value === undefined ? 'withheld' : formatNumber(d.fetches.value)}
                                {reason && <span className="suppressed-reason"> ({reason})</span>}
                              </td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </div>
                )}
                {t.suppressed && <p className="small muted">Documents read by fewer than 5 distinct accounts on every day are left out.</p>}
              </>
            )}
          </QueryState>
        </>
      )}
    </section>
  );
}
