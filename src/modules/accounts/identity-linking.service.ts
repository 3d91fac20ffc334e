/**
 * Sign-in with an identity provider's verified identity: the account linked to that identity,
 * else the account with the same e-mail (linked only when the provider verified the e-mail, and
 * taken over from an unverified first registrant), else a new account. One transaction.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import type { RequestContext } from '../../context.js';
import { DomainError } from '../../errors.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { IdentityLinkEntity } from './identity-link.entity.js';
import { PasswordResetEntity } from './password-reset.entity.js';
import type { SessionService, SignInResult } from './sessions.js';
import { UserEntity } from './user.entity.js';

/** A verified identity from an identity provider. */
export interface ProviderIdentity {
  provider: string;
  subject: string;
  email: string;
  /** As the provider proves it (Google `email_verified`, Microsoft `xms_edov`, GitHub's verified primary address). */
  emailVerified: boolean;
  name: string | null;
}

export class IdentityLinkingService {
  constructor(private readonly deps: { orm: MikroORM; sessions: SessionService }) {}

  /** Signs in with `identity`; 403 when the provider did not verify its e-mail. */
  async signInWithProvider(_ctx: RequestContext, identity: ProviderIdentity): Promise<SignInResult> {
    if (!identity.emailVerified) {
      throw new DomainError('forbidden', `Your ${identity.provider} account has no verified email address`);
    }
    const em = this.deps.orm.em.fork();
    const userId = await em.transactional(async (tx) => {
      const link = await tx.findOne(IdentityLinkEntity, { provider: identity.provider, subject: identity.subject }, { fields: ['user_id'] });
      if (link) return link.user_id;
      const emailLower = identity.email.toLowerCase();
      let user = await tx.findOne(UserEntity, { email_lower: emailLower });
      if (!user) {
        user = tx.create(UserEntity, {
          id: randomUUID(),
          email: identity.email,
          email_lower: emailLower,
          email_verified: true,
          name: identity.name,
          password_hash: null,
          plan: 'free',
          created_at: new Date(),
        });
        tx.persist(user);
      } else if (!user.email_verified) {
        // Nobody proved owning this address before: whoever registered it may not be the person
        // the provider just verified. The verified owner takes the account over, and everything
        // the first registrant holds ends here, in this transaction: the password, every other
        // session, every API key, and the legal acceptance they gave (the owner accepts anew).
        const now = new Date();
        Object.assign(user, {
          email_verified: true,
          password_hash: null,
          sessions_valid_after: now,
          terms_version: null,
          legal_accepted_at: null,
          legal_accepted_ip: null,
        });
        await tx.nativeUpdate(ApiKeyEntity, { user_id: user.id, revoked_at: null }, { revoked_at: now });
        await tx.nativeDelete(PasswordResetEntity, { user_id: user.id, used_at: null });
      }
      const created = tx.create(IdentityLinkEntity, {
        id: randomUUID(),
        user_id: user.id,
        provider: identity.provider,
        subject: identity.subject,
        email: identity.email,
        created_at: new Date(),
      });
      await tx.persist(created).flush();
      return user.id;
    });
    const user = await em.fork().findOneOrFail(UserEntity, { id: userId });
    return this.deps.sessions.signIn(user);
  }
}
