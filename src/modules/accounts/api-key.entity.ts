/**
 * API keys. Only the SHA-256 of the key is stored (keys are 190+ bits of randomness, so a fast
 * hash is enough); `key_prefix` (`sk-AbCd...wXyZ`) lets the owner recognise it.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  properties: {
    id: p.uuid().primary(),
    user_id: p.uuid().index('api_key_user_id_index'),
    name: p.text(),
    key_hash: p.text().unique('api_key_key_hash_unique'),
    key_prefix: p.text(),
    created_at: p.datetime().onCreate(() => new Date()),
    last_used_at: p.datetime().nullable(),
    revoked_at: p.datetime().nullable(),
  },
});

export type ApiKey = InferEntity<typeof ApiKeyEntity>;
