/** Administration overview: user and request figures, a 30-day chart of requests, top endpoints. */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useQuery } from '../../app/hooks';
import { formatNumber } from '../../components/format';
import { Page } from '../../components/Page';
import { Empty, QueryState } from '../../components/states';
import { AdminStatsDocument } from '../../gql/graphql';
import { AdminNav } from './AdminNav';

export default function StatsPage() {
  const stats = useQuery(AdminStatsDocument);
  return (
    <Page title="Administration">
      <AdminNav />
      <QueryState result={stats} loadingLabel="Loading the figures…">
        {({ adminStats: s }) => {
          const total30 = s.daily_requests.reduce((a, d) => a + d.requests, 0);
          return (
            <>
              <ul className="stat-grid" aria-label="Figures">
                {[
                  ['Users', s.total_users],
                  ['Requests today', s.requests_today],
                  ['Requests, 30 days', total30],
                  ['New users, 7 days', s.new_users_7d],
                  ['New users, 30 days', s.new_users_30d],
                  ['Active users, 7 days', s.active_users_7d],
                  ['Active users, 30 days', s.active_users_30d],
                ].map(([label, value]) => (
                  <li key={label as string}>
                    <span className="stat-value">{formatNumber(value as number)}</span>
                    <span className="stat-label">{label}</span>
                  </li>
                ))}
              </ul>
              <section className="card" aria-labelledby="chart-title">
                <h2 id="chart-title">Requests per day, last 30 days (UTC)</h2>
                <div className="chart" role="img" aria-label={`Bar chart of requests per day over the last 30 days: ${formatNumber(total30)} in all, ${formatNumber(s.requests_today)} today.`}>
                  <ResponsiveContainer width="100%" height="100%">
                    <BarChart data={s.daily_requests} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
                      <CartesianGrid strokeDasharray="3 3" stroke="#d6d3d1" />
                      <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} tick={{ fill: '#44403c', fontSize: 12 }} minTickGap={16} />
                      <YAxis allowDecimals={false} tick={{ fill: '#44403c', fontSize: 12 }} width={48} />
                      <Tooltip />
                      <Bar dataKey="requests" name="Requests" fill="#1d4ed8" isAnimationActive={false} />
                    </BarChart>
                  </ResponsiveContainer>
                </div>
              </section>
              <section className="card" aria-labelledby="top-title">
                <h2 id="top-title">Top endpoints, last 30 days</h2>
                {s.top_endpoints.length === 0 ? (
                  <Empty title="No requests yet" />
                ) : (
                  <div className="table-wrap">
                    <table className="responsive">
                      <thead>
                        <tr>
                          <th scope="col">Endpoint</th>
                          <th scope="col">Requests</th>
                        </tr>
                      </thead>
                      <tbody>
                        {s.top_endpoints.map((e) => (
                          <tr key={e.endpoint}>
                            <td data-label="Endpoint">
                              <code>{e.endpoint}</code>
                            </td>
                            <td data-label="Requests">{formatNumber(e.requests)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </section>
            </>
          );
        }}
      </QueryState>
    </Page>
  );
}
