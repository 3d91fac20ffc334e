/**
 * Accounts (table `app_user`: `user` is a reserved word in PostgreSQL). `email_lower` holds the
 * case-folded e-mail and is unique, so `Ann@x.org` and `ann@x.org` are one account whether it was
 * registered with a password or created through an identity provider.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const UserEntity = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p.uuid().primary(),
    email: p.text(),
    email_lower: p.text().unique('app_user_email_lower_unique'),
    email_verified: p.boolean().default(false),
    /**
     * When the address was first proven (verification link, password-reset link, or a verified
     * identity-provider sign-in). Every credential made before it ended at that moment; API keys
     * made after it survive later resets (src/modules/accounts/email-proof.ts). Null: not proven.
     */
    email_proven_at: p.datetime().nullable(),
    name: p.text().nullable(),
    /** argon2id PHC string; null for accounts created through an identity provider. */
    password_hash: p.text().nullable(),
    plan: p.text().default('free'),
    /** Legal acceptance: the terms version accepted, when, and from which IP (recorded once per version). */
    terms_version: p.text().nullable(),
    legal_accepted_at: p.datetime().nullable(),
    legal_accepted_ip: p.text().nullable(),
    /** Sessions issued before this instant are void (password reset ends other sessions). */
    sessions_valid_after: p.datetime().nullable(),
    /** The payment provider's billing window of a paid plan (filled in by the billing issue). */
    billing_period_start: p.datetime().nullable(),
    billing_period_end: p.datetime().nullable(),
    created_at: p.datetime().onCreate(() => new Date()),
  },
});

export type User = InferEntity<typeof UserEntity>;
