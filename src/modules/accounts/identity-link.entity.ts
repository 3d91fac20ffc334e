/** An account's link to an identity provider's subject (`github`/`google`/`microsoft` + their user id). */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const IdentityLinkEntity = defineEntity({
  name: 'IdentityLink',
  tableName: 'identity_link',
  uniques: [{ name: 'identity_link_provider_subject_unique', properties: ['provider', 'subject'] }],
  properties: {
    id: p.uuid().primary(),
    user_id: p.uuid().index('identity_link_user_id_index'),
    provider: p.text(),
    subject: p.text(),
    email: p.text(),
    created_at: p.datetime().onCreate(() => new Date()),
  },
});

export type IdentityLink = InferEntity<typeof IdentityLinkEntity>;
