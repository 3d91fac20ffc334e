/**
 * Credits: the balance, a one-time top-up (Stripe Checkout, mode payment) and the auto top-up
 * form (threshold and amount; the server refuses it without an active subscription or a saved
 * card and says why).
 */
import type { Answered } from '../../api/client';
import { type FormEvent, useState } from 'react';
import { useMutation } from '../../app/hooks';
import { formatDateTime } from '../../components/format';
import { Field } from '../../components/Page';
import { FormError } from '../../components/states';
import { CreditTopupCheckoutDocument, SetAutoTopupDocument, type BillingOverviewQuery } from '../../gql/graphql';
import { usd } from './money';

type Status = Answered<BillingOverviewQuery>['billingStatus'];

const FAILURE_WORDS: Record<string, string> = {
  card_declined: 'the card was declined',
  authentication_required: 'the bank asked for your confirmation, which an automatic charge cannot give',
};

export function CreditsSection({ status, onChanged }: { status: Status; onChanged(): void }) {
  const paid = status.plan !== 'free';
  return (
    <section className="card" aria-labelledby="credits-title">
      <h2 id="credits-title">Credits</h2>
      <p>
        Balance: <strong data-testid="credit-balance">{usd(status.credits.balance_usd)}</strong>
      </p>
      <p className="muted small">
        Paid plans draw on credits for requests past the period allowance instead of answering 429. Credits stay until they are used.
        {!paid && ' Top-ups are for paid plans.'}
      </p>
      <div className="grid two">
        <TopupForm paid={paid} />
        <AutoTopupForm status={status} onChanged={onChanged} />
      </div>
    </section>
  );
}

/** A one-time top-up: the amount, then Stripe's payment page. */
function TopupForm({ paid }: { paid: boolean }) {
  const topup = useMutation(CreditTopupCheckoutDocument);
  const [amount, setAmount] = useState(20);

  async function buy(e: FormEvent) {
    e.preventDefault();
    const answer = await topup.run({ amountUsd: Math.floor(amount) });
    if (answer) window.location.assign(answer.creditTopupCheckout.checkout_url);
  }

  return (
    <form onSubmit={buy} className="stack" aria-labelledby="topup-title">
      <h3 id="topup-title">Buy credits</h3>
      <Field id="topup-amount" label="Amount (USD)" hint="5 to 1,000 dollars, paid once on Stripe's page.">
        <input id="topup-amount" type="number" min={5} max={1000} step={1} value={amount} onChange={(e) => setAmount(Number(e.target.value))} aria-describedby="topup-amount-hint" />
      </Field>
      <FormError error={topup.error} />
      <div className="actions">
        <button type="submit" disabled={topup.pending || !paid}>
          {topup.pending ? 'Opening Stripe…' : `Buy ${Number.isFinite(amount) && amount > 0 ? usd(Math.floor(amount)) : ''} of credits`}
        </button>
      </div>
    </form>
  );
}

/** Automatic top-ups below a threshold; a failed charge turned them off and says why. */
function AutoTopupForm({ status, onChanged }: { status: Status; onChanged(): void }) {
  const auto = useMutation(SetAutoTopupDocument);
  const current = status.credits.auto_topup;
  const [enabled, setEnabled] = useState(current.enabled);
  const [threshold, setThreshold] = useState(current.threshold_usd);
  const [autoAmount, setAutoAmount] = useState(current.amount_usd);
  const [saved, setSaved] = useState(false);
  const failure = status.credits.auto_topup_last_failure;

  async function saveAuto(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const answer = await auto.run({ input: { enabled, thresholdUsd: Math.floor(threshold), amountUsd: Math.floor(autoAmount) } });
    if (answer) {
      setSaved(true);
      onChanged();
    }
  }

  return (
    <form onSubmit={saveAuto} className="stack" aria-labelledby="auto-title">
      <h3 id="auto-title">Auto top-up</h3>
      {failure && (
        <p className="form-error" role="alert">
          Auto top-up was turned off on {formatDateTime(failure.at)}: {FAILURE_WORDS[failure.reason] ?? failure.reason}. Buy credits once to save a working card, then turn it on again.
        </p>
      )}
      <div className="check">
        <input id="auto-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <label htmlFor="auto-enabled">Charge my saved card automatically when credits run low</label>
      </div>
      <Field id="auto-threshold" label="When the balance falls below (USD)">
        <input id="auto-threshold" type="number" min={1} max={1000} value={threshold} onChange={(e) => setThreshold(Number(e.target.value))} />
      </Field>
      <Field id="auto-amount" label="Add (USD)" hint="5 to 1,000 dollars each time.">
        <input id="auto-amount" type="number" min={5} max={1000} value={autoAmount} onChange={(e) => setAutoAmount(Number(e.target.value))} aria-describedby="auto-amount-hint" />
      </Field>
      <FormError error={auto.error} />
      {saved && (
        <p role="status" className="muted">
          Saved.
        </p>
      )}
      <div className="actions">
        <button type="submit" className="secondary" disabled={auto.pending}>
          {auto.pending ? 'Saving…' : 'Save auto top-up'}
        </button>
      </div>
    </form>
  );
}
