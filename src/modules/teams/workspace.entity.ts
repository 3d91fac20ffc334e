/**
 * Workspaces. Billing creates the team workspace a per-seat subscription pays for and keeps its
 * `seat_limit` equal to the subscription's quantity; the teams issue adds members, invites and
 * domains on top of this table.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const WorkspaceEntity = defineEntity({
  name: 'Workspace',
  tableName: 'workspace',
  properties: {
    id: p.uuid().primary(),
    owner_user_id: p.uuid().unique('workspace_owner_user_id_unique'),
    name: p.text(),
    kind: p.text().default('team'),
    seat_limit: p.integer(),
    created_at: p.datetime().onCreate(() => new Date()),
  },
});
export type Workspace = InferEntity<typeof WorkspaceEntity>;
