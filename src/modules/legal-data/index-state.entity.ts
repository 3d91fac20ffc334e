/**
 * Small key/value table for index-wide facts (corpus fingerprint, embedding model, ...).
 * `value` is jsonb, so any JSON value round-trips.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const IndexStateEntity = defineEntity({
  name: 'IndexState',
  tableName: 'index_state',
  properties: {
    key: p.text().primary(),
    value: p.json<unknown>(),
    updated_at: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type IndexState = InferEntity<typeof IndexStateEntity>;
