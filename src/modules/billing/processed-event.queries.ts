/** Statements on `billing_processed_event`: the Stripe event ids already applied (each takes effect once). */
import type { EntityManager } from '@mikro-orm/core';
import { ProcessedEventEntity } from './billing.entities.js';
import { sqlRows } from '../../util/raw-sql.js';

/** True when the event was applied already. */
export async function isEventProcessed(em: EntityManager, eventId: string): Promise<boolean> {
  return (await em.count(ProcessedEventEntity, { id: eventId })) > 0;
}

/** Marks the event applied; false when another delivery of it got there first (nothing written). */
export async function markEventProcessed(em: EntityManager, eventId: string, type: string): Promise<boolean> {
  // SQL: insert-or-nothing with the answer in one statement: the idempotency of webhooks rests on it
  const inserted = await sqlRows<{ id: string }>(em, 'insert into billing_processed_event (id, type, processed_at) values (?, ?, ?) on conflict (id) do nothing returning id', [
    eventId,
    type,
    new Date(),
  ]);
  return inserted.length > 0;
}
