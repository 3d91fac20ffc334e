/**
 * One row per counted billable request, and per recorded request that is not billed (`billed`
 * false: a document revalidation or HEAD, under its own endpoint name). `user_id`/`api_key_id` are null for anonymous callers
 * (who are identified by `client_ip`) and after the account is deleted (rows are anonymised,
 * not removed, so aggregate statistics stay right).
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const UsageEventEntity = defineEntity({
  name: 'UsageEvent',
  tableName: 'usage_event',
  indexes: [
    { name: 'usage_event_user_id_created_at_index', properties: ['user_id', 'created_at'] },
    { name: 'usage_event_workspace_id_created_at_index', properties: ['workspace_id', 'created_at'] },
  ],
  // The admin area's running totals (src/modules/admin/usage-rollups.entities.ts); the functions
  // they call are created by the admin migration. Declared here so the schema diff keeps them.
  triggers: [
    {
      name: 'usage_event_rollup_insert',
      timing: 'after',
      events: ['insert'],
      forEach: 'statement',
      expression: 'create trigger usage_event_rollup_insert after insert on usage_event referencing new table as usage_new for each statement execute function usage_rollup_add()',
    },
    {
      name: 'usage_event_rollup_anonymise',
      timing: 'after',
      events: ['update'],
      forEach: 'statement',
      expression:
        'create trigger usage_event_rollup_anonymise after update on usage_event referencing old table as usage_old new table as usage_new for each statement execute function usage_rollup_anonymise()',
    },
  ],
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    user_id: p.uuid().nullable(),
    api_key_id: p.uuid().nullable(),
    client_ip: p.text().nullable(),
    /** The team workspace whose pooled allowance the request counted in (null outside one); kept when the member leaves. */
    workspace_id: p.uuid().nullable(),
    endpoint: p.text(),
    status: p.integer(),
    created_at: p.datetime(),
    /** Given by the recorder when the request is counted: a batch written twice inserts its rows once. */
    event_id: p.uuid().nullable().unique('usage_event_event_id_unique'),
    /** False for the requests recorded but not billed (a document's 304 or HEAD): statistics only, no plan count. */
    billed: p.boolean().default(true),
  },
});

export type UsageEvent = InferEntity<typeof UsageEventEntity>;
