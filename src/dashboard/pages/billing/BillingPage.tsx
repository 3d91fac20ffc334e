/**
 * Billing: the current plan and subscription (customer portal), the return from Stripe Checkout
 * (verified with the server), the plans of the chosen audience, checkout (the legal documents,
 * the exact order summary and an unticked assent box: the spec's checkout rules), credits with
 * top-ups and the auto top-up form. When billing is off on the server, the page says so.
 */
import type { Answered } from '../../api/client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { config } from '../../app/config';
import { useMutation, useQuery } from '../../app/hooks';
import { formatDate } from '../../components/format';
import { Page } from '../../components/Page';
import { ErrorState, FormError, Loading, QueryState } from '../../components/states';
import {
  BillingOverviewDocument,
  PortalSessionDocument,
  SetAudienceDocument,
  VerifyCheckoutDocument,
  type Audience,
  type BillingOverviewQuery,
} from '../../gql/graphql';
import { CheckoutForm } from './CheckoutForm';
import { CreditsSection } from './CreditsSection';
import { AUDIENCES, planLabel, SUBSCRIPTION_STATUS, usd } from './money';
import './billing.css';

type Status = Answered<BillingOverviewQuery>['billingStatus'];
type Plan = BillingOverviewQuery['plans']['plans'][number];
const ENTITLED = new Set(['active', 'trialing', 'past_due']);

export default function BillingPage() {
  const [params, setParams] = useSearchParams();
  const [audience, setAudience] = useState<Audience | null>(null);
  const overview = useQuery(BillingOverviewDocument, { audience: audience ?? 'legal_professional' });
  const saveAudience = useMutation(SetAudienceDocument);
  const [interval, setBilledInterval] = useState<'monthly' | 'yearly'>('monthly');
  const [chosen, setChosen] = useState<Plan | null>(null);
  const status = overview.data?.billingStatus;

  // the first answer tells the account's own audience choice
  useEffect(() => {
    if (audience === null && status?.audience) setAudience(status.audience as Audience); // an audience the server answered is one of the enum's
  }, [audience, status?.audience]);

  const names = useMemo(() => Object.fromEntries((overview.data?.plans.plans ?? []).map((p) => [p.slug, p.name])), [overview.data]);
  const returned = params.get('checkout') ?? params.get('topup');
  const sessionId = params.get('session_id');

  function dismissReturn() {
    setParams({}, { replace: true });
  }

  return (
    <Page title="Billing" lead="Your plan, payments and credits. Payments are handled by Stripe; card details never reach this service.">
      {!config.billing && (
        <p className="notice" role="status" data-testid="billing-off">
          <strong>Billing is off on this server.</strong> Plans are shown for information; checkout, the customer portal and credit top-ups are not available here.
        </p>
      )}

      {returned === 'success' && sessionId && config.billing && (
        <CheckoutReturn sessionId={sessionId} kind={params.get('topup') ? 'topup' : 'checkout'} names={names} onVerified={overview.reload} onDismiss={dismissReturn} />
      )}
      {returned === 'cancelled' && <CancelledNotice onDismiss={dismissReturn} />}

      <QueryState result={overview} loadingLabel="Loading your billing details…">
        {(data) => (
          <>
            <StatusSection status={data.billingStatus} names={names} />
            {config.billing && <CreditsSection status={data.billingStatus} onChanged={overview.reload} />}

            <section aria-labelledby="plans-title">
              <h2 id="plans-title">{data.plans.title ?? 'Plans'}</h2>
              <PlanControls
                audience={audience ?? 'legal_professional'}
                onAudience={(value) => {
                  setAudience(value);
                  setChosen(null);
                  // the explicit choice of a Free account is remembered (paid accounts keep theirs)
                  if (data.billingStatus.plan === 'free') void saveAudience.run({ audience: value });
                }}
                interval={interval}
                onInterval={setBilledInterval}
              />
              <ul className="plan-grid" aria-label="Plans">
                {data.plans.plans.map((p) => (
                  <PlanCard
                    key={p.slug}
                    plan={p}
                    interval={interval}
                    current={data.billingStatus.plan === p.slug}
                    canBuy={config.billing && p.slug !== 'free' && !ENTITLED.has(data.billingStatus.subscription?.status ?? '')}
                    onChoose={() => setChosen(p)}
                  />
                ))}
              </ul>
            </section>

            {chosen && config.billing && (
              <CheckoutForm key={`${chosen.slug}-${interval}`} plan={chosen} interval={interval} audience={audience ?? 'legal_professional'} onCancel={() => setChosen(null)} />
            )}
          </>
        )}
      </QueryState>
    </Page>
  );
}

function StatusSection({ status, names }: { status: Status; names: Record<string, string> }) {
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
      ) : (
        <p className="muted">No subscription. Choose a paid plan below for a larger allowance.</p>
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

function PlanCard({ plan, interval, current, canBuy, onChoose }: { plan: Plan; interval: 'monthly' | 'yearly'; current: boolean; canBuy: boolean; onChoose(): void }) {
  const price = plan.prices[interval];
  const headingId = `plan-${plan.slug}`;
  return (
    <li className={`card plan-card${plan.recommended ? ' recommended' : ''}`} aria-labelledby={headingId}>
      <h3 id={headingId}>
        {plan.name} {plan.recommended && <span className="badge active">recommended</span>} {current && <span className="badge">your plan</span>}
      </h3>
      {plan.tagline && <p className="muted">{plan.tagline}</p>}
      <p className="price">
        {price === 0 ? 'Free' : usd(price)}
        {price > 0 && (
          <span className="muted small">
            {' '}
            per {plan.per_seat ? 'seat per ' : ''}
            {interval === 'monthly' ? 'month' : 'year'}
          </span>
        )}
      </p>
      <ul className="features">
        <li>
          {plan.limits.per_period !== null ? `${plan.limits.per_period.toLocaleString()} requests per period${plan.per_seat ? ' per seat' : ''}` : 'No period limit'}
          {plan.limits.per_day !== null ? `, ${plan.limits.per_day.toLocaleString()} per day` : ''}
        </li>
        <li>{plan.limits.per_minute.toLocaleString()} requests per minute</li>
        {plan.features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      {canBuy && !current && (
        <button type="button" onClick={onChoose} aria-label={`Choose ${plan.name}`}>
          Choose {plan.name}
        </button>
      )}
    </li>
  );
}

/** The return from Stripe: the server checks the session with Stripe and applies it. */
function CheckoutReturn({
  sessionId,
  kind,
  names,
  onVerified,
  onDismiss,
}: {
  sessionId: string;
  kind: 'checkout' | 'topup';
  names: Record<string, string>;
  onVerified(): void;
  onDismiss(): void;
}) {
  const verify = useMutation(VerifyCheckoutDocument);
  const [answer, setAnswer] = useState<Awaited<ReturnType<typeof verify.run>>>(undefined);
  const started = useRef(false);
  async function check() {
    const a = await verify.run({ sessionId });
    setAnswer(a);
    if (a) onVerified();
  }
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void check();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId]);
  const v = answer?.verifyCheckout;
  const done = v?.status === 'complete';
  return (
    <section className={done ? 'success' : 'card'} aria-labelledby="return-title" data-testid="checkout-return">
      <h2 id="return-title" style={{ marginTop: 0 }}>
        {kind === 'topup' ? 'Credit top-up' : 'Your payment'}
      </h2>
      {verify.pending && <Loading label="Checking the payment with Stripe…" />}
      {verify.error && <ErrorState error={verify.error} onRetry={check} />}
      {v && done && v.mode === 'subscription' && (
        <p role="status">
          Payment received. Your plan is now <strong>{planLabel(v.plan ?? '', names)}</strong>
          {v.interval ? ` (${v.interval})` : ''}
          {v.quantity && v.quantity > 1 ? ` with ${v.quantity} seats` : ''}.
        </p>
      )}
      {v && done && v.mode === 'payment' && <p role="status">Payment received. {v.credits_usd !== null ? `${usd(v.credits_usd)} of credits were added.` : 'Your credits will appear shortly.'}</p>}
      {v && !done && (
        <p role="status">
          {v.status === 'expired' ? 'This checkout expired before it was paid; nothing was charged.' : 'The payment is not complete yet. If you paid, it can take a moment to arrive.'}{' '}
          {v.status !== 'expired' && (
            <button type="button" className="secondary" onClick={check} disabled={verify.pending}>
              Check again
            </button>
          )}
        </p>
      )}
      <div className="actions">
        <button type="button" className="secondary" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}

/** Whom the plans are for (the audience) and how they are billed. */
function PlanControls({ audience, onAudience, interval, onInterval }: { audience: Audience; onAudience(value: Audience): void; interval: 'monthly' | 'yearly'; onInterval(interval: 'monthly' | 'yearly'): void }) {
  return (
    <div className="plan-controls">
      <fieldset className="segmented">
        <legend>Plans for</legend>
        {AUDIENCES.map((a) => (
          <label key={a.value} className="check">
            <input
              type="radio"
              name="audience"
              value={a.value}
              checked={audience === a.value}
              onChange={() => onAudience(a.value)}
            />
            {a.label}
          </label>
        ))}
      </fieldset>
      <fieldset className="segmented">
        <legend>Billed</legend>
        {(['monthly', 'yearly'] as const).map((i) => (
          <label key={i} className="check">
            <input type="radio" name="interval" value={i} checked={interval === i} onChange={() => onInterval(i)} />
            {i === 'monthly' ? 'Monthly' : 'Yearly'}
          </label>
        ))}
      </fieldset>
    </div>
  );
}

/** Back from Stripe without paying. */
function CancelledNotice({ onDismiss }: { onDismiss(): void }) {
  return (
    <div className="notice" role="status">
      <p style={{ margin: 0 }}>The payment was cancelled: nothing was charged and your plan is unchanged.</p>
      <button type="button" className="secondary" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
