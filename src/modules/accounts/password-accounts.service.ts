/**
 * Password accounts: registration, password sign-in and password reset. Each path that costs
 * argon2 work or sends mail is throttled before it does (src/modules/accounts/sign-in-throttle.ts,
 * src/modules/usage/throttle.ts), and answers the same whether the account exists or not.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { backgroundEm, type RequestContext } from '../../context.js';
import { DomainError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import type { CounterStore } from '../usage/counter-store.js';
import {
  PASSWORD_RESET_ADDRESS_LIMIT,
  PASSWORD_RESET_IP_LIMIT,
  REGISTER_LIMIT,
  throttleOperation,
  withinOperationLimit,
} from '../usage/throttle.js';
import { loginBodySchema, passwordResetConfirmSchema, passwordResetRequestSchema, registerBodySchema, type UserRecord } from './account.schema.js';
import { isUniqueViolation } from './hashing.js';
import { proveEmail } from './email-proof.js';
import type { MailOutbox } from './mail-outbox.js';
import { proofMail } from './proof-mail.js';
import { consumeOneTimeToken, issueOneTimeToken, RESET_TOKEN_TTL_MS } from './one-time-tokens.js';
import type { MailMessage } from './mailer.js';
import { hashPassword, timingDummyHash, verifyPassword } from './passwords.js';
import type { IssuedSession, SessionService, SignInResult } from './sessions.js';
import { SignInThrottle, type SignInThrottleSettings } from './sign-in-throttle.js';
import { UserEntity } from './user.entity.js';
import { verificationMail } from './verification-mail.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * Whether `token` is a pending team invite sent to `emailLower` (teams answers it: accounts knows
 * no invites). Such a registration needs no verification mail: the invite's link proves the address.
 */
export type InviteVouch = (em: EntityManager, emailLower: string, token: string) => Promise<boolean>;
const EMAIL_TAKEN = 'An account with this email already exists';

export class PasswordAccountsService {
  private readonly throttle: SignInThrottle;
  private inviteVouch: InviteVouch | null = null;

  constructor(
    private readonly deps: {
      orm: MikroORM;
      sessions: SessionService;
      outbox: MailOutbox;
      counters: CounterStore;
      settings: { termsVersion: string; baseUrl: string; signInThrottle: SignInThrottleSettings };
    },
  ) {
    this.throttle = new SignInThrottle(deps.counters, deps.settings.signInThrottle);
  }

  /** Teams tells whether an invite token vouches for a registration's address. */
  vouchWithInvites(check: InviteVouch): void {
    this.inviteVouch = check;
  }

  /**
   * Creates a password account and mails it a verification link (after the answer, through the
   * outbox), unless it comes from a pending invite to the same address (`invite_token`: the invite
   * page then proves the address with it); 409 when the e-mail (any case, any sign-in method) exists. The
   * per-IP budget is counted and the e-mail looked up before argon2 hashes anything, so a flood
   * costs no hashing; the unique index still decides a race between two registrations.
   */
  async register(ctx: RequestContext, input: unknown): Promise<UserRecord> {
    const body = parseInput(registerBodySchema, input);
    await throttleOperation(this.deps.counters, ctx.caller.ip ?? 'unknown', REGISTER_LIMIT);
    const em = ctx.em;
    const emailLower = body.email.toLowerCase();
    if (await em.count(UserEntity, { email_lower: emailLower })) throw new DomainError('conflict', EMAIL_TAKEN);
    // read before the account is written: a failed look-up fails the registration, never an account already made
    const vouched = body.invite_token !== undefined && (await this.inviteVouch?.(em, emailLower, body.invite_token)) === true;
    const passwordHash = await hashPassword(body.password);
    const accepted = body.accept_terms && body.acknowledge_privacy;
    const user = em.create(UserEntity, {
      id: randomUUID(),
      email: body.email,
      email_lower: emailLower,
      email_verified: false,
      name: body.name ?? null,
      password_hash: passwordHash,
      plan: 'free',
      terms_version: accepted ? this.deps.settings.termsVersion : null,
      legal_accepted_at: accepted ? new Date() : null,
      legal_accepted_ip: accepted ? ctx.caller.ip : null,
      created_at: new Date(),
    });
    try {
      await em.persist(user).flush();
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError('conflict', EMAIL_TAKEN);
      throw error;
    }
    // the first verification mail goes out after the answer: a mail server that is down or slow
    // never fails or delays a registration (the dashboard's button sends another)
    const { id, email } = user;
    if (vouched) return this.deps.sessions.userRecord(user);
    this.deps.outbox.enqueue('email verification', () => verificationMail(backgroundEm(this.deps.orm), { id, email }, this.deps.settings.baseUrl));
    return this.deps.sessions.userRecord(user);
  }

  /**
   * Password sign-in. The attempt is counted before argon2 runs and taken back on success
   * (SignInThrottle); a wrong e-mail and a wrong password give the same 401 after the same
   * argon2 work.
   */
  async login(ctx: RequestContext, input: unknown): Promise<SignInResult> {
    const body = parseInput(loginBodySchema, input);
    const email = body.email.trim().toLowerCase();
    const attempt = await this.throttle.attempt(email, ctx.caller.ip);
    const user = await ctx.em.findOne(UserEntity, { email_lower: email });
    const ok = await verifyPassword(user?.password_hash ?? (await timingDummyHash()), body.password);
    if (!user || !user.password_hash || !ok) throw new DomainError('unauthorized', INVALID_CREDENTIALS);
    await attempt.succeeded();
    return this.deps.sessions.signIn(user);
  }

  /**
   * Always the same 200 (no account enumeration); mails a one-time token valid one hour when the
   * account exists. Limited per IP (429) and per address: past the address's budget the answer is
   * unchanged and no mail is sent, whether the account exists or not. The look-up, the token and
   * the mail are queued in the outbox and happen after the answer, so the request takes the same
   * path, and the same time, whether the address has an account or not.
   */
  async requestPasswordReset(ctx: RequestContext, input: unknown): Promise<{ detail: string }> {
    const body = parseInput(passwordResetRequestSchema, input);
    const answer = { detail: 'If an account exists for this email, a password reset link has been sent.' };
    await throttleOperation(this.deps.counters, ctx.caller.ip ?? 'unknown', PASSWORD_RESET_IP_LIMIT);
    const email = body.email.trim().toLowerCase();
    if (!(await withinOperationLimit(this.deps.counters, email, PASSWORD_RESET_ADDRESS_LIMIT))) return answer;
    this.deps.outbox.enqueue('password reset', () => this.resetMail(email));
    return answer;
  }

  /**
   * Consumes a reset token once and sets the password. The link proved the address: in the same
   * transaction every session and OAuth grant ends, and the API keys made before the address was
   * first proven (all of them with `revoke_api_keys`), see src/modules/accounts/email-proof.ts; the
   * mail says what ended and which keys stay. A new session starts. argon2 runs only once the token
   * proved valid (an invalid token costs no hashing). The account's sign-in failures are forgotten:
   * the reset link is the owner's way past a guesser who keeps the account slowed down
   * (src/modules/accounts/sign-in-throttle.ts).
   */
  async confirmPasswordReset(ctx: RequestContext, input: unknown): Promise<{ detail: string; session: IssuedSession }> {
    const body = parseInput(passwordResetConfirmSchema, input);
    const outcome = await ctx.em.transactional(async (tx) => {
      const id = await consumeOneTimeToken(tx, 'password_reset', body.token);
      if (!id) throw new DomainError('bad_request', 'Invalid or expired password reset token');
      const passwordHash = await hashPassword(body.password);
      await tx.nativeUpdate(UserEntity, { id }, { password_hash: passwordHash });
      const proven = await proveEmail(tx, id, 'password_reset', { revokeApiKeys: body.revoke_api_keys });
      if (!proven) throw new DomainError('bad_request', 'Invalid or expired password reset token');
      return proven;
    });
    this.deps.outbox.enqueue('password changed', async () => proofMail(outcome, this.deps.settings.baseUrl));
    const owner = await ctx.em.findOne(UserEntity, { id: outcome.userId });
    if (owner) await this.throttle.clearAccount(owner.email_lower);
    const session = await this.deps.sessions.issueSession(outcome.userId);
    const keys = outcome.revokedKeys.length ? ` ${outcome.revokedKeys.length} API key(s) revoked.` : '';
    return { detail: `Password updated; other sessions have been signed out.${keys}`, session };
  }

  /** The reset mail for `email` (a new one-time token), or null when no account has that address. */
  private async resetMail(email: string): Promise<MailMessage | null> {
    // the outbox sends after the response: the request's unit of work is over by then
    const em = backgroundEm(this.deps.orm);
    const user = await em.findOne(UserEntity, { email_lower: email });
    if (!user) return null;
    const token = await issueOneTimeToken(em, user.id, 'password_reset', RESET_TOKEN_TTL_MS);
    const link = `${this.deps.settings.baseUrl}/reset-password?token=${token}`;
    return {
      to: user.email,
      subject: 'Reset your password',
      text:
        `Someone asked to reset the password of your account.\n\n` +
        `To choose a new password, open this link within one hour:\n${link}\n\n` +
        `Reset token: ${token}\n\nIf it was not you, ignore this e-mail.`,
    };
  }
}
