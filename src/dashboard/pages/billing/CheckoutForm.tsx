/**
 * Checkout of a paid plan, by the spec's checkout rules: the legal documents (with versions) and
 * the exact order summary are shown first, and the assent box starts unticked; only a ticked box
 * sends legal_accepted: true. Then the browser goes to Stripe's hosted checkout page.
 */
import { config } from '../../app/config';
import type { Answered } from '../../api/client';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type QueryResult, useMutation, useQuery } from '../../app/hooks';
import { Field } from '../../components/Page';
import { FormError, QueryState } from '../../components/states';
import { CheckoutDocument, CheckoutDocumentsDocument, PromoDocument, type Audience, type BillingOverviewQuery, type CheckoutDocumentsQuery, type PaidPlan, type PromoQuery } from '../../gql/graphql';
import { request } from '../../api/client';
import { ApiError } from '../../api/errors';
import { discountDurationWords, paymentsAfterToday, usd } from './money';

type Plan = BillingOverviewQuery['plans']['plans'][number];
type Promo = Answered<PromoQuery>['promo'];

/** The discount a valid promotion code gives on `subtotal` (what Stripe will apply). */
export function discountOf(promo: Promo | null, subtotal: number): number {
  if (!promo?.valid) return 0;
  if (promo.percent_off) return Math.round(subtotal * promo.percent_off) / 100;
  if (promo.amount_off) return Math.min(subtotal, promo.amount_off);
  return 0;
}

export function CheckoutForm({ plan, interval, audience, onCancel }: { plan: Plan; interval: 'monthly' | 'yearly'; audience: Audience; onCancel(): void }) {
  // only paid plans offer a checkout, and a paid plan's catalogue slug is a PaidPlan value
  const paidPlan = plan.slug as PaidPlan;
  const documents = useQuery(CheckoutDocumentsDocument, { plan: paidPlan });
  const checkout = useMutation(CheckoutDocument);
  const [quantity, setQuantity] = useState(plan.per_seat ? 2 : 1);
  const [workspaceName, setWorkspaceName] = useState('');
  const promoCode = usePromoCode();
  const promo = promoCode.promo;
  const [accepted, setAccepted] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // the form opens below the plans: bring it into view and put the focus on its heading
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, []);

  const unit = plan.prices[interval];
  const seats = plan.per_seat ? Math.max(1, Math.min(1000, Math.floor(quantity) || 1)) : 1;
  const subtotal = unit * seats;
  const applies = promo?.valid && (promo.plans ?? []).includes(plan.slug);
  const discount = applies ? discountOf(promo, subtotal) : 0;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!accepted) return;
    const answer = await checkout.run({
      input: {
        plan: paidPlan,
        interval,
        quantity: seats,
        workspaceName: plan.per_seat && workspaceName.trim() ? workspaceName.trim() : null,
        promoCode: applies ? promo!.code : null,
        audience,
        legalAccepted: true,
      },
    });
    if (answer) window.location.assign(answer.checkout.checkout_url);
  }

  return (
    <section className="card checkout" aria-labelledby="checkout-title">
      <h2 id="checkout-title" ref={heading} tabIndex={-1}>
        Checkout: {plan.name}
      </h2>
      <form onSubmit={submit} className="stack" noValidate>
        {plan.per_seat && (
          <div className="grid two">
            <Field id="checkout-seats" label="Seats" hint="One per person in your team; you can change it later (1 to 1,000).">
              <input id="checkout-seats" type="number" min={1} max={1000} value={quantity} onChange={(e) => setQuantity(Number(e.target.value))} aria-describedby="checkout-seats-hint" />
            </Field>
            <Field id="checkout-workspace" label="Team workspace name" hint="Shown to the people you invite.">
              <input id="checkout-workspace" type="text" maxLength={100} value={workspaceName} onChange={(e) => setWorkspaceName(e.target.value)} aria-describedby="checkout-workspace-hint" />
            </Field>
          </div>
        )}
        <PromoCodeField code={promoCode} applies={Boolean(applies)} planName={plan.name} />

        <h3 id="summary-title">Order summary</h3>
        <OrderSummary plan={plan} interval={interval} seats={seats} workspaceName={workspaceName} promo={applies ? promo : null} />
        <p className="muted small">Prices in US dollars. Taxes, if any, are added by Stripe on the payment page. You can cancel at any time in the customer portal; the plan stays until the end of the paid period.</p>

        <h3 id="documents-title">Legal documents</h3>
        <LegalAssent documents={documents} accepted={accepted} onAccepted={setAccepted} />

        <FormError error={checkout.error} />
        <div className="actions">
          <button type="submit" disabled={!accepted || checkout.pending || !documents.data}>
            {checkout.pending ? 'Opening Stripe…' : `Continue to payment (${usd(subtotal - discount)})`}
          </button>
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
        {!accepted && <p className="hint">Tick the box above to continue.</p>}
      </form>
    </section>
  );
}

/** The promotion code field's state, and its check against the server (what Stripe would apply). */
function usePromoCode() {
  const [promoText, setPromoText] = useState('');
  const [promo, setPromo] = useState<Promo | null>(null);
  const [promoError, setPromoError] = useState<ApiError | null>(null);
  const [checking, setChecking] = useState(false);

  async function checkPromo() {
    const code = promoText.trim();
    setPromo(null);
    setPromoError(null);
    if (!code) return;
    setChecking(true);
    try {
      setPromo((await request(PromoDocument, { code })).promo);
    } catch (e) {
      setPromoError(e instanceof ApiError ? e : new ApiError('server', String(e)));
    } finally {
      setChecking(false);
    }
  }
  return { promoText, setPromoText, promo, setPromo, promoError, checking, checkPromo };
}

/** The promotion code field with its check, and why a code gives no discount. */
function PromoCodeField({ code, applies, planName }: { code: ReturnType<typeof usePromoCode>; applies: boolean; planName: string }) {
  const { promoText, setPromoText, promo, setPromo, promoError, checking, checkPromo } = code;
  return (
    <>
      <div className="inline-form">
        <Field id="checkout-promo" label="Promotion code (optional)">
          <input id="checkout-promo" type="text" maxLength={200} value={promoText} onChange={(e) => (setPromoText(e.target.value), setPromo(null))} autoComplete="off" />
        </Field>
        <button type="button" className="secondary" onClick={checkPromo} disabled={checking || !promoText.trim()}>
          {checking ? 'Checking…' : 'Apply code'}
        </button>
      </div>
      <FormError error={promoError} />
      <PromoProblems promo={promo} applies={applies} planName={planName} />
    </>
  );
}

/** Why an entered code gives no discount: unusable, or not for this plan. */
function PromoProblems({ promo, applies, planName }: { promo: Promo | null; applies: boolean; planName: string }) {
  return (
    <>
      {promo && !promo.valid && (
        <p className="form-error" role="alert">
          This code cannot be used ({promo.reason === 'used_up' ? 'it has been used up' : promo.reason === 'expired' ? 'it has expired' : promo.reason === 'inactive' ? 'it is no longer active' : 'unknown code'}).
        </p>
      )}
      {promo?.valid && !applies && (
        <p className="form-error" role="alert">
          This code does not apply to the {planName} plan.
        </p>
      )}
    </>
  );
}

/** The exact order: plan, price, seats, workspace, subtotal, discount and what is due today. */
function OrderSummary({ plan, interval, seats, workspaceName, promo }: { plan: Plan; interval: 'monthly' | 'yearly'; seats: number; workspaceName: string; promo: Promo | null }) {
  const unit = plan.prices[interval];
  const subtotal = unit * seats;
  const discount = discountOf(promo, subtotal);
  const period = interval === 'monthly' ? 'month' : 'year';
  const applies = promo !== null;
  const after = paymentsAfterToday(promo, interval, subtotal - discount, subtotal);
  return (
    <table className="summary" aria-labelledby="summary-title" data-testid="order-summary">
      <tbody>
        <tr>
          <th scope="row">Plan</th>
          <td>
            {plan.name}, billed {interval}
          </td>
        </tr>
        <tr>
          <th scope="row">{plan.per_seat ? 'Price per seat' : 'Price'}</th>
          <td>
            {usd(unit)} per {period}
          </td>
        </tr>
        {plan.per_seat && (
          <tr>
            <th scope="row">Seats</th>
            <td>{seats}</td>
          </tr>
        )}
        {plan.per_seat && workspaceName.trim() && (
          <tr>
            <th scope="row">Team workspace</th>
            <td>{workspaceName.trim()}</td>
          </tr>
        )}
        <tr>
          <th scope="row">Subtotal</th>
          <td>
            {usd(subtotal)} per {period}
          </td>
        </tr>
        {applies && (
          <tr>
            <th scope="row">Discount ({promo!.code})</th>
            <td>
              −{usd(discount)} {discountDurationWords(promo!)}
            </td>
          </tr>
        )}
        <tr className="total">
          <th scope="row">Total due today</th>
          <td>
            <strong>{usd(subtotal - discount)}</strong>
            {after.startsWith('then') ? ', ' : ' today: '}
            {after}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** The legal documents of the order (with versions) and the assent box, unticked at first. */
function LegalAssent({ documents, accepted, onAccepted }: { documents: QueryResult<CheckoutDocumentsQuery>; accepted: boolean; onAccepted(accepted: boolean): void }) {
  return (
    <QueryState result={documents} loadingLabel="Loading the documents…">
      {(data) => (
        <>
          <ul aria-labelledby="documents-title" data-testid="checkout-documents">
            {data.checkoutDocuments.map((d) => (
              <li key={d.key}>
                <a href={legalDocumentUrl(d.key)} target="_blank" rel="noopener">
                  {d.title}
                </a>
                , version {d.version} {d.assent === 'acknowledge' ? <span className="muted small">(acknowledged)</span> : <span className="muted small">(accepted)</span>}
              </li>
            ))}
          </ul>
          <div className="check">
            <input id="checkout-assent" type="checkbox" checked={accepted} onChange={(e) => onAccepted(e.target.checked)} required />
            <label htmlFor="checkout-assent">
              I accept the{' '}
              {data.checkoutDocuments
                .filter((d) => d.assent === 'accept')
                .map((d) => `${d.title} (${d.version})`)
                .join(', ')}{' '}
              for this order as summarised above, and I acknowledge the {data.checkoutDocuments.find((d) => d.assent === 'acknowledge')?.title ?? 'privacy notice'}.
            </label>
          </div>
        </>
      )}
    </QueryState>
  );
}

/** Where a checkout document is read (config.legal): the repository's terms text holds both the service agreement and the API/MCP terms. */
function legalDocumentUrl(key: string): string {
  if (key === 'privacy_notice') return config.legal.privacy;
  if (key === 'data_processing_agreement') return config.legal.dataProcessing;
  return config.legal.terms;
}
