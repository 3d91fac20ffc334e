/**
 * The authorization server's state (oidc-provider models): registered clients, grants,
 * authorization codes, refresh tokens, sessions and interactions, one row per model instance.
 * `payload` is what oidc-provider stored; the other columns are the lookups it needs (by grant,
 * by session uid, by user code) and the expiry, so expired rows are never returned.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const OAuthModelEntity = defineEntity({
  name: 'OAuthModel',
  tableName: 'oauth_model',
  indexes: [
    { name: 'oauth_model_grant_id_index', properties: ['grant_id'] },
    { name: 'oauth_model_model_uid_index', properties: ['model', 'uid'] },
    { name: 'oauth_model_model_user_code_index', properties: ['model', 'user_code'] },
    { name: 'oauth_model_expires_at_index', properties: ['expires_at'] },
  ],
  properties: {
    /** oidc-provider's model name (`Client`, `Grant`, `AuthorizationCode`, `RefreshToken`, ...). */
    model: p.text().primary(),
    id: p.text().primary(),
    payload: p.json<Record<string, unknown>>(),
    grant_id: p.text().nullable(),
    user_code: p.text().nullable(),
    uid: p.text().nullable(),
    /** Null = does not expire (registered clients). */
    expires_at: p.datetime().nullable(),
    consumed_at: p.datetime().nullable(),
  },
});

export type OAuthModel = InferEntity<typeof OAuthModelEntity>;
