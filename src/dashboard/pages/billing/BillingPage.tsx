/**
 * Billing: the current plan and subscription (customer portal), the return from Stripe Checkout
 * (verified with the server), the plans of the chosen audience, checkout (the legal documents,
 * the exact order summary and an unticked assent box: the spec's checkout rules), then credits
 * (only for accounts that can buy them) and the invoices. A team member is told the plan comes
 * from the team, with nothing to buy. When billing is off on the server, the page says so.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { config } from '../../app/config';
import { useMutation, useQuery } from '../../app/hooks';
import { Page } from '../../components/Page';
import { ErrorState, FormError, Loading, QueryState } from '../../components/states';
import { BillingOverviewDocument, SetAudienceDocument, VerifyCheckoutDocument, type Audience } from '../../gql/graphql';
import { CheckoutForm } from './CheckoutForm';
import { CreditsSection } from './CreditsSection';
import { InvoicesSection } from './InvoicesSection';
import { planLabel, usd } from './money';
import { PlanControls, PlanGrid, type Plan } from './PlanCards';
import { ENTITLED, StatusSection } from './StatusSection';
import './billing.css';

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
        {(data) => {
          const st = data.billingStatus;
          const member = st.team_plan !== null;
          // the credits are for paid plans (the server's rule), and a member's requests draw on the team
          const canBuyCredits = config.billing && !member && st.plan !== 'free' && st.plan !== 'anonymous';
          return (
            <>
              <StatusSection status={st} names={names} />
              {!member && (
                <section aria-labelledby="plans-title">
                  <h2 id="plans-title">{data.plans.title ?? 'Plans'}</h2>
                  <PlanControls
                    audience={audience ?? 'legal_professional'}
                    onAudience={(value) => {
                      setAudience(value);
                      setChosen(null);
                      // the explicit choice of a Free account is remembered (paid accounts keep theirs)
                      if (st.plan === 'free') void saveAudience.run({ audience: value });
                    }}
                    interval={interval}
                    onInterval={setBilledInterval}
                  />
                  <PlanGrid plans={data.plans.plans} interval={interval} currentPlan={st.plan} canBuy={config.billing && !ENTITLED.has(st.subscription?.status ?? '')} onChoose={setChosen} />
                </section>
              )}
              {chosen && config.billing && !member && (
                <CheckoutForm key={`${chosen.slug}-${interval}`} plan={chosen} interval={interval} audience={audience ?? 'legal_professional'} onCancel={() => setChosen(null)} />
              )}
              {canBuyCredits && <CreditsSection status={st} onChanged={overview.reload} />}
              {config.billing && <InvoicesSection member={member} />}
            </>
          );
        }}
      </QueryState>
    </Page>
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
