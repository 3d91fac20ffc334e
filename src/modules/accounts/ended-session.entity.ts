/**
 * Sessions ended at logout. A session is a signed token (src/modules/accounts/tokens.ts) that
 * would stay valid until it expires; its SHA-256 is kept here until then, and the per-request
 * session check refuses it (src/modules/accounts/sessions.ts).
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const EndedSessionEntity = defineEntity({
  name: 'EndedSession',
  tableName: 'ended_session',
  properties: {
    token_hash: p.text().primary(),
    user_id: p.uuid().index('ended_session_user_id_index'),
    ended_at: p.datetime(),
    /** When the token expires anyway: the row can be deleted after that. */
    expires_at: p.datetime().index('ended_session_expires_at_index'),
  },
});

export type EndedSession = InferEntity<typeof EndedSessionEntity>;
