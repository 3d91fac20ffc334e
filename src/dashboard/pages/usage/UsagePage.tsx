/**
 * Usage: the plan and its limits, requests today and in the period with progress bars, a chart
 * of the daily history, the per-minute limit, what happens at a limit, and the requests per key
 * and endpoint over a chosen range with its CSV.
 */
import type { Answered } from '../../api/client';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useQuery } from '../../app/hooks';
import { config } from '../../app/config';
import { Page } from '../../components/Page';
import { Empty, Loading, QueryState } from '../../components/states';
import { formatDate, formatNumber } from '../../components/format';
import { UsageDocument, type UsageQuery } from '../../gql/graphql';
import { UsageBreakdownSection } from './UsageBreakdownSection';

const UsageChart = lazy(() => import('./UsageChart'));

function Meter({ id, label, used, limit, enforced }: { id: string; label: string; used: number; limit: number; enforced: boolean }) {
  const unlimited = !enforced || limit <= 0;
  const share = unlimited ? 0 : Math.min(1, used / limit);
  return (
    <div className="meter">
      <div className="meter-label">
        <span id={`${id}-label`}>{label}</span>
        <span>
          <strong>{formatNumber(used)}</strong>
          {unlimited ? ' (no limit)' : ` of ${formatNumber(limit)}`}
        </span>
      </div>
      {!unlimited && (
        <progress id={id} max={limit} value={Math.min(used, limit)} aria-labelledby={`${id}-label`} aria-valuetext={`${used} of ${limit} (${Math.round(share * 100)} %)`}>
          {Math.round(share * 100)} %
        </progress>
      )}
      {!unlimited && share >= 0.8 && <p className="small notice">{share >= 1 ? 'Limit reached.' : 'Close to the limit.'}</p>}
    </div>
  );
}

function planName(plan: string): string {
  return plan.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}

function Usage({ u }: { u: Answered<UsageQuery>['usage'] }) {
  const paid = !['free', 'anonymous'].includes(u.plan);
  return (
    <>
      <div className="grid two">
        <section className="card" aria-labelledby="plan-title">
          <h2 id="plan-title">
            {planName(u.plan)} plan
          </h2>
          <p className="muted small">
            {u.period_type === 'billing_period' ? 'Billing period' : 'Last 30 days'}: {formatDate(u.period_start)}
            {u.period_end ? ` – ${formatDate(u.period_end)}` : ''}
          </p>
          {u.has_daily_limit && <Meter id="today" label="Requests today" used={u.requests_today} limit={u.per_day_limit} enforced={u.limits_enforced} />}
          {!u.has_daily_limit && (
            <p>
              Requests today: <strong>{formatNumber(u.requests_today)}</strong>
            </p>
          )}
          <Meter id="period" label="Requests in this period" used={u.requests_in_period} limit={u.per_period_limit} enforced={u.limits_enforced} />
          <p>
            Per minute:{' '}
            {u.limits_enforced && u.per_minute_limit > 0 ? (
              <>
                at most <strong>{formatNumber(u.per_minute_limit)}</strong> requests
              </>
            ) : (
              <strong>no limit</strong>
            )}
            .
          </p>
        </section>
        <section className="card" aria-labelledby="limits-title">
          <h2 id="limits-title">At the limit</h2>
          {u.limits_enforced ? (
            <ul>
              <li>Over the per-minute limit a call answers <strong>429 Too Many Requests</strong> with a <code>Retry-After</code> header saying how many seconds to wait.</li>
              {u.has_daily_limit && <li>Past the daily limit calls answer 429 until midnight UTC.</li>}
              {paid ? (
                <li>On a paid plan, requests beyond the period's allowance are drawn from your prepaid credits while they last{config.billing ? ' (top them up, or turn on auto top-up, under Billing)' : ''}; without credits they answer 429.</li>
              ) : (
                <li>Past the period's allowance calls answer 429 until the next period. A paid plan raises the limits{config.billing ? <> (<Link to="/billing">see plans</Link>)</> : ''}.</li>
              )}
              <li>Searches, documents and citation resolution count, whether they come from the API, an AI agent over MCP, or this dashboard.</li>
            </ul>
          ) : (
            <p>This server counts usage but does not limit it (RATE_LIMITS=off).</p>
          )}
        </section>
      </div>
      <section className="card" aria-labelledby="history-title">
        <h2 id="history-title">Daily history</h2>
        {u.daily_history.length === 0 || u.daily_history.every((d) => d.count === 0) ? (
          <Empty title="No requests in this period yet">
            <p>
              Run a <Link to="/search">search</Link> or call the API with a key; it shows up here.
            </p>
          </Empty>
        ) : (
          <Suspense fallback={<Loading label="Loading the chart…" />}>
            <UsageChart days={u.daily_history} />
          </Suspense>
        )}
      </section>
    </>
  );
}

export default function UsagePage() {
  const usage = useQuery(UsageDocument);
  return (
    <Page
      title="Usage"
      lead="Your plan, its limits, and the requests counted so far."
      actions={
        <button type="button" className="secondary" onClick={usage.reload} disabled={usage.loading}>
          Refresh
        </button>
      }
    >
      <QueryState result={usage} loadingLabel="Loading your usage…">
        {(data) => <Usage u={data.usage} />}
      </QueryState>
      <UsageBreakdownSection />
    </Page>
  );
}
