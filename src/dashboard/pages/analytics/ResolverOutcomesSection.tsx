/** Citation resolutions per country and match type over the range (without chosen countries: every country in scope). */
import { useQuery } from '../../app/hooks';
import { countryLabel } from '../../components/catalogue';
import { formatNumber } from '../../components/format';
import { Empty, QueryState } from '../../components/states';
import { ResolverOutcomesDocument } from '../../gql/graphql';
import { suppressionReason } from './analytics-data';

export function ResolverOutcomesSection({ countries, from, to }: { countries: string[] | null; from: string; to: string }) {
  const outcomes = useQuery(ResolverOutcomesDocument, { countries, from, to });
  return (
    <section className="card" aria-labelledby="outcomes-title">
      <h2 id="outcomes-title">Resolver outcomes</h2>
      <p className="small muted">{countries ? 'Citations resolved in the chosen countries, by match type.' : 'Citations resolved in every country you may see, by match type.'}</p>
      <QueryState result={outcomes} loadingLabel="Loading the resolver outcomes…">
        {({ resolverOutcomes: r }) =>
          r.outcomes.length === 0 ? (
            <Empty title="No citations were resolved in this range" />
          ) : (
            <div className="table-wrap">
              <table className="small" data-testid="resolver-outcomes">
                <thead>
                  <tr>
                    <th scope="col">Country</th>
                    <th scope="col">Match type</th>
                    <th scope="col">Resolutions</th>
                  </tr>
                </thead>
                <tbody>
                  {r.outcomes.map((o) => {
                    const reason = suppressionReason(o.resolutions);
                    return (
                      <tr key={`${o.country ?? ''} ${o.matchType}`}>
                        <td>{o.country ? countryLabel(o.country) : 'Not resolved to a document'}</td>
                        <td>{o.matchType.replace(/_/g, ' ')}</td>
                        <td title={reason ?? undefined}>
                          {o.resolutions.value === null || o.resolutions.value === undefined ? 'withheld' : formatNumber(o.resolutions.value)}
                          {reason && <span className="suppressed-reason"> ({reason})</span>}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
