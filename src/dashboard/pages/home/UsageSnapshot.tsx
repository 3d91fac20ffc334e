/** The home's usage snapshot: what is left today and in the period, and the last 7 days as a small table. */
import { Link } from 'react-router';
import type { Answered } from '../../api/client';
import type { HomeQuery } from '../../gql/graphql';

type Usage = NonNullable<Answered<HomeQuery>['usage']>;

const number = (n: number) => n.toLocaleString('en-GB');

function Remaining({ label, used, limit }: { label: string; used: number; limit: number }) {
  const left = Math.max(0, limit - used);
  return (
    <div>
      <p>
        <strong data-testid={`remaining-${label}`}>{number(left)}</strong> of {number(limit)} requests left {label}
      </p>
      <progress max={limit} value={Math.min(used, limit)} aria-label={`Requests used ${label}: ${used} of ${limit}`} />
    </div>
  );
}

export function UsageSnapshot({ usage }: { usage: Usage }) {
  const week = usage.daily_history.slice(-7);
  return (
    <section className="card" aria-labelledby="quota">
      <h2 id="quota">Your quota</h2>
      {!usage.limits_enforced ? (
        <p>Your requests are counted but not limited.</p>
      ) : (
        <div className="grid two">
          {usage.has_daily_limit && usage.per_day_limit != null && <Remaining label="today" used={usage.requests_today} limit={usage.per_day_limit} />}
          <Remaining label="this period" used={usage.requests_in_period} limit={usage.per_period_limit} />
        </div>
      )}
      <p className="muted small">
        {usage.plan} plan, at most {usage.per_minute_limit} requests a minute{usage.period_end ? `; the period ends ${new Date(usage.period_end).toLocaleDateString('en-GB')}` : ''}.
      </p>
      {week.length > 0 && (
        <table className="compact">
          <caption>Requests over the last {week.length} days</caption>
          <thead>
            <tr>
              {week.map((d) => (
                <th key={d.date} scope="col">
                  {d.date.slice(5)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              {week.map((d) => (
                <td key={d.date}>{d.count}</td>
              ))}
            </tr>
          </tbody>
        </table>
      )}
      <p>
        <Link to="/usage">All usage</Link>
      </p>
    </section>
  );
}
