/**
 * The dashboard home's getting-started checklist, from what the service can observe of an account:
 *
 * - verified: the address is proven (email_verified);
 * - has_key: an API key that is not revoked;
 * - first_call_at: the first billed call recorded for the account (any door, key or session;
 *   the usage recorder writes in batches, so it shows a few seconds after the call);
 * - agent_connected: an OAuth grant that has not expired, which is how an MCP client connects
 *   through /oauth. An agent using an API key is not told apart: usage rows do not record the door.
 */
import type { EntityManager } from '@mikro-orm/core';
import { firstBilledCallAt } from '../usage/usage-event.queries.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { liveGrantsOf } from './oauth-grant.queries.js';
import { UserEntity } from './user.entity.js';

export interface GettingStarted {
  verified: boolean;
  has_key: boolean;
  first_call_at: string | null;
  agent_connected: boolean;
}

/** The checklist's state for `userId` at `now`. */
export async function gettingStartedOf(em: EntityManager, userId: string, now = new Date()): Promise<GettingStarted> {
  // one after another: the request's entity manager runs one statement at a time
  const user = await em.findOne(UserEntity, { id: userId });
  const keys = await em.count(ApiKeyEntity, { user_id: userId, revoked_at: null });
  const firstCall = await firstBilledCallAt(em, userId);
  const grants = await liveGrantsOf(em, userId, now);
  return { verified: Boolean(user?.email_verified), has_key: keys > 0, first_call_at: firstCall?.toISOString() ?? null, agent_connected: grants.length > 0 };
}
