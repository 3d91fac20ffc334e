/** One-time password reset tokens, stored as SHA-256 hashes; valid one hour, consumed once. */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const PasswordResetEntity = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_reset',
  properties: {
    id: p.uuid().primary(),
    user_id: p.uuid().index('password_reset_user_id_index'),
    token_hash: p.text().unique('password_reset_token_hash_unique'),
    expires_at: p.datetime(),
    used_at: p.datetime().nullable(),
    created_at: p.datetime().onCreate(() => new Date()),
  },
});

export type PasswordReset = InferEntity<typeof PasswordResetEntity>;
