/** "Your plan": the effective plan, an administrator's override, a team member's plan from the team, the subscription and the portal. */
import { Link } from 'react-router';
import type { Answered } from '../../api/client';
import { config } from '../../app/config';
import { useMutation } from '../../app/hooks';
import { formatDate } from '../../components/format';
import { FormError } from '../../components/states';
import { PortalSessionDocument, type BillingOverviewQuery } from '../../gql/graphql';
import { planLabel, SUBSCRIPTION_STATUS } from './money';

type Status = Answered<BillingOverviewQuery>['billingStatus'];
export const ENTITLED = new Set(['active', 'trialing', 'past_due']);

export function StatusSection({ status, names }: { status: Status; names: Record<string, string> }) {
  const portal = useMutation(PortalSessionDocument);
  const sub = status.subscription;
  return (
    <section className="card" aria-labelledby="status-title">
      <h2 id="status-title">Your plan</h2>
      <p className="plan-now">
        <span className="plan-name" data-testid="current-plan">
          {planLabel(status.plan, names)}
        </span>
        {status.admin_override && <span className="badge">set by an administrator</span>}
      </p>
      {status.admin_override && (
        <p className="muted small">
          An administrator set this plan on {formatDate(status.admin_override.set_at)}
          {status.admin_override.reason ? ` (${status.admin_override.reason})` : ''}; it applies instead of your subscription while it is set.
        </p>
      )}
      {status.team_plan && (
        <p data-testid="team-plan">
          Your plan comes from the team workspace <strong>{status.team_plan.workspace_name}</strong>, where you are {status.team_plan.role === 'admin' ? 'an admin' : 'a member'}. Its owner ({status.team_plan.owner_email}) pays for
          the seats and manages the subscription; you have nothing to buy. <Link to="/team">See the team</Link>.
        </p>
      )}
      {sub ? (
        <dl className="facts">
          <div>
            <dt>Subscription</dt>
            <dd>
              {planLabel(sub.plan, names)}, {sub.interval === 'yearly' ? 'yearly' : 'monthly'}
              {sub.quantity > 1 ? `, ${sub.quantity} seats` : ''}
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <span className={`badge ${ENTITLED.has(sub.status) && sub.status !== 'past_due' ? 'active' : 'revoked'}`}>{SUBSCRIPTION_STATUS[sub.status] ?? sub.status}</span>
            </dd>
          </div>
          <div>
            <dt>Current period</dt>
            <dd>
              {formatDate(sub.current_period_start)} – {formatDate(sub.current_period_end)}
            </dd>
          </div>
          <div>
            <dt>Renewal</dt>
            <dd>{sub.cancel_at_period_end ? `Ends on ${formatDate(sub.current_period_end)} (cancelled)` : `Renews on ${formatDate(sub.current_period_end)}`}</dd>
          </div>
          {status.workspace && (
            <div>
              <dt>Team workspace</dt>
              <dd>
                {status.workspace.name} ({status.workspace.seat_limit} seats)
              </dd>
            </div>
          )}
        </dl>
      ) : status.team_plan ? null : (
        <p className="muted">{status.plan === 'free' ? 'You are on the Free plan. Choose a paid plan below for a larger allowance.' : 'No subscription of your own.'}</p>
      )}
      {config.billing && sub && (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={portal.pending}
            onClick={async () => {
              const answer = await portal.run({});
              if (answer) window.location.assign(answer.portalSession.url);
            }}
          >
            {portal.pending ? 'Opening…' : 'Manage subscription, payment methods and invoices'}
          </button>
        </div>
      )}
      <FormError error={portal.error} />
    </section>
  );
}
