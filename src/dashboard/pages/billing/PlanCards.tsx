/**
 * The plans of the chosen audience as equal cards: each card's heading, tagline, price, limits
 * and features and button sit in the same rows across the grid (CSS subgrid), and the column
 * count follows the number of plans so that five plans never leave one card alone on a row
 * (five in a row on a wide screen, three and two in between, one per row on a phone).
 */
import type { Audience, BillingOverviewQuery } from '../../gql/graphql';
import { allowanceWords, AUDIENCES, usd, yearlySaving } from './money';

export type Plan = BillingOverviewQuery['plans']['plans'][number];
export type BilledInterval = 'monthly' | 'yearly';

export function PlanGrid({ plans, interval, currentPlan, canBuy, onChoose }: { plans: Plan[]; interval: BilledInterval; currentPlan: string; canBuy: boolean; onChoose(plan: Plan): void }) {
  return (
    <ul className={`plan-grid plans-${Math.min(plans.length, 5)}`} aria-label="Plans" data-testid="plan-grid">
      {plans.map((p) => (
        <PlanCard key={p.slug} plan={p} interval={interval} current={currentPlan === p.slug} canBuy={canBuy && p.slug !== 'free'} onChoose={() => onChoose(p)} />
      ))}
    </ul>
  );
}

function PlanCard({ plan, interval, current, canBuy, onChoose }: { plan: Plan; interval: BilledInterval; current: boolean; canBuy: boolean; onChoose(): void }) {
  const price = plan.prices[interval];
  const headingId = `plan-${plan.slug}`;
  const saving = interval === 'yearly' ? yearlySaving(plan.prices) : null;
  const limits = allowanceWords(plan);
  // the catalogue's features, less any that repeats a limit line word for word
  const features = plan.features.filter((f) => !limits.includes(f));
  return (
    <li className={`card plan-card${plan.recommended ? ' recommended' : ''}`} aria-labelledby={headingId} data-testid={`plan-${plan.slug}`}>
      <div className="plan-head">
        <h3 id={headingId}>{plan.name}</h3>
        {plan.recommended && <span className="badge active">recommended</span>} {current && <span className="badge">your plan</span>}
      </div>
      <p className="muted plan-tagline">{plan.tagline ?? ''}</p>
      <div className="plan-price">
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
        {saving && (
          <p className="saving small" data-testid={`saving-${plan.slug}`}>
            {usd(Math.round((price / 12) * 100) / 100)} a month: save {usd(saving.amount)} ({saving.percent}%) against paying monthly
          </p>
        )}
      </div>
      <ul className="features">
        {limits.map((line) => (
          <li key={line}>{line}</li>
        ))}
        {features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <div className="plan-action">
        {canBuy && !current && (
          <button type="button" onClick={onChoose} aria-label={`Choose ${plan.name}`}>
            Choose {plan.name}
          </button>
        )}
      </div>
    </li>
  );
}

/** Whom the plans are for (the audience) and how they are billed. */
export function PlanControls({ audience, onAudience, interval, onInterval }: { audience: Audience; onAudience(value: Audience): void; interval: BilledInterval; onInterval(interval: BilledInterval): void }) {
  return (
    <div className="plan-controls">
      <fieldset className="segmented">
        <legend>Plans for</legend>
        {AUDIENCES.map((a) => (
          <label key={a.value} className="check">
            <input type="radio" name="audience" value={a.value} checked={audience === a.value} onChange={() => onAudience(a.value)} />
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
