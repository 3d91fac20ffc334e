/**
 * Statements on the two tables a checkout writes: `legal_assent` (what the account accepted,
 * written before Stripe is called) and `billing_checkout_session` (the sessions this server
 * created, so only their creator may verify them). Plain inserts, updates and reads: the entity
 * manager's API, reads without its identity map.
 */
import type { EntityManager } from '@mikro-orm/core';
import { type CheckoutSession, CheckoutSessionEntity, LegalAssentEntity } from './billing.entities.js';

export interface LegalAssentRecord {
  id: string;
  userId: string;
  documents: Record<string, string>;
  orderSummary: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
}

/** Records a legal assent (never changed afterwards except for the session it led to). */
export async function recordLegalAssent(em: EntityManager, assent: LegalAssentRecord): Promise<void> {
  await em.insert(LegalAssentEntity, {
    id: assent.id,
    user_id: assent.userId,
    documents: assent.documents,
    order_summary: assent.orderSummary,
    ip: assent.ip,
    user_agent: assent.userAgent,
    accepted_at: new Date(),
  });
}

/** Links an assent to the checkout session created from it. */
export async function linkAssentToSession(em: EntityManager, assentId: string, sessionId: string): Promise<void> {
  await em.nativeUpdate(LegalAssentEntity, { id: assentId }, { checkout_session_id: sessionId });
}

export interface CheckoutSessionRecord {
  id: string;
  userId: string;
  mode: 'subscription' | 'payment';
  /** Subscription mode only: the order. */
  order?: { plan: string; interval: string; quantity: number; workspaceName: string | null; assentId: string };
}

/** Records a checkout session this server created. */
export async function recordCheckoutSession(em: EntityManager, session: CheckoutSessionRecord): Promise<void> {
  await em.insert(CheckoutSessionEntity, {
    id: session.id,
    user_id: session.userId,
    mode: session.mode,
    plan: session.order?.plan ?? null,
    interval: session.order?.interval ?? null,
    quantity: session.order?.quantity ?? null,
    workspace_name: session.order?.workspaceName ?? null,
    assent_id: session.order?.assentId ?? null,
    created_at: new Date(),
  });
}

/** A checkout session this server created, or null; with `userId`, only when that account created it. */
export function findCheckoutSession(em: EntityManager, sessionId: string, userId?: string): Promise<CheckoutSession | null> {
  return em.findOne(CheckoutSessionEntity, userId === undefined ? { id: sessionId } : { id: sessionId, user_id: userId }, { disableIdentityMap: true });
}
