/**
 * Sign-in with an identity provider's verified identity: the account linked to that identity,
 * else the account with the same e-mail (linked only when the provider verified the e-mail, and
 * taken over from an unverified first registrant), else a new account. One transaction.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import type { RequestContext } from '../../context.js';
import { DomainError } from '../../errors.js';
import { type ProofOutcome, proveEmail } from './email-proof.js';
import { IdentityLinkEntity } from './identity-link.entity.js';
import type { MailOutbox } from './mail-outbox.js';
import { PasswordResetEntity } from './password-reset.entity.js';
import { proofMail } from './proof-mail.js';
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
  constructor(private readonly deps: { orm: MikroORM; sessions: SessionService; outbox: MailOutbox; baseUrl: string }) {}

  /** Signs in with `identity`; 403 when the provider did not verify its e-mail. */
  async signInWithProvider(ctx: RequestContext, identity: ProviderIdentity): Promise<SignInResult> {
    if (!identity.emailVerified) {
      throw new DomainError('forbidden', `Your ${identity.provider} account has no verified email address`);
    }
    const em = ctx.em;
    let proof: ProofOutcome | null = null;
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
          email_proven_at: new Date(),
          name: identity.name,
          password_hash: null,
          plan: 'free',
          created_at: new Date(),
        });
        tx.persist(user);
      } else {
        // The provider just proved the address: linking it to an existing account is a proof, and
        // the first proof ends every credential made before it (sessions, API keys, OAuth grants;
        // src/modules/accounts/email-proof.ts). An account proven before loses nothing here.
        const unverified = !user.email_verified;
        proof = await proveEmail(tx, user.id, 'identity_provider');
        if (unverified) {
          // Nobody proved owning this address before: whoever registered it may not be the person
          // the provider just verified. The verified owner takes the account over: the first
          // registrant's password and pending reset links end too, and so does the legal
          // acceptance they gave (the owner accepts anew).
          Object.assign(user, { password_hash: null, terms_version: null, legal_accepted_at: null, legal_accepted_ip: null });
          await tx.nativeDelete(PasswordResetEntity, { user_id: user.id, used_at: null });
        }
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
    const ended = proof as ProofOutcome | null;
    if (ended?.ended) this.deps.outbox.enqueue('identity provider linked', async () => proofMail(ended, this.deps.baseUrl));
    // refresh: the transaction may have changed the row behind an entity this request already holds
    const user = await em.findOneOrFail(UserEntity, { id: userId }, { refresh: true });
    return this.deps.sessions.signIn(user);
  }
}
