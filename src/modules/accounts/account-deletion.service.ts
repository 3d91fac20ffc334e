/**
 * Erasure of an account, by its holder (DELETE /auth/me) or by an administrator
 * (DELETE /v1/admin/users/{user_id}), by the spec's rules: in one transaction a deletion-log row
 * (user id, a hash of the e-mail, actor, time, reason) is written before the user row goes; keys,
 * links, one-time tokens, ended sessions, OAuth grants and tokens, billing rows and the plan
 * override are deleted; usage rows and feedback reports stay, anonymised. Sessions and access
 * tokens stop at once: they are checked against the user row on every request. Stripe
 * subscriptions are cancelled after the commit (best effort, retried later, never undoing it).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { type RequestContext, requireAccount } from '../../context.js';
import { parseInput } from '../../validation.js';
import type { UsageService } from '../usage/usage.service.js';
import { deleteAccountBodySchema } from './account.schema.js';

export interface ErasureRequest {
  userId: string;
  /** The administrator who erased the account; null when its holder deleted it. */
  actor: { userId: string; email: string } | null;
  reason: string | null;
}

/** Cancels the Stripe subscriptions an erasure owes (billing/admin supply it; retried until done). */
export interface SubscriptionCanceller {
  /** Records the owed cancellations in the erasure's transaction. */
  owe(tx: EntityManager, userId: string, subscriptionIds: string[]): Promise<void>;
  /** After the commit: tries them now; a failure is kept for a later retry, never thrown. */
  cancelOwed(subscriptionIds: string[]): Promise<void>;
}

/** Stripe subscription states that still bill or may bill again. */
const LIVE_SUBSCRIPTION = "status not in ('canceled', 'incomplete_expired')";

export function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

export class AccountDeletionService {
  private canceller: SubscriptionCanceller | null = null;

  constructor(private readonly deps: { orm: MikroORM; usage: UsageService }) {}

  /** Billing's Stripe side is built after the accounts module. */
  useSubscriptionCanceller(canceller: SubscriptionCanceller): void {
    this.canceller = canceller;
  }

  async deleteMe(ctx: RequestContext, input: unknown): Promise<void> {
    const caller = requireAccount(ctx);
    parseInput(deleteAccountBodySchema, input);
    await this.erase({ userId: caller.userId, actor: null, reason: 'deleted by the account holder' });
  }

  /**
   * Erases the account; false when there is none. `inTransaction` runs inside the erasure's
   * transaction (the admin audit entry). Bulk statements in raw SQL: they touch tables of other
   * modules and the jsonb match on `oauth_model` has no entity query form.
   */
  async erase(request: ErasureRequest, inTransaction?: (tx: EntityManager) => Promise<void> | void): Promise<boolean> {
    const { userId } = request;
    // from here on, queued and future usage rows of this account are written without its ids
    const forgotten = this.deps.usage.forgetAccount(userId);
    let owed: string[] = [];
    try {
      await this.deps.usage.flush();
      const erased = await this.deps.orm.em.fork().transactional(async (tx) => {
        const connection = tx.getConnection();
        const trx = tx.getTransactionContext();
        const rows = (sql: string, params: unknown[] = [userId]) => connection.execute(sql, params, 'all', trx) as Promise<Record<string, any>[]>;
        const run = (sql: string) => connection.execute(sql, [userId], 'run', trx);
        const [user] = await rows('select id, email from app_user where id = ? for update');
        if (!user) return false;
        // (1) the deletion log first, in this transaction
        await connection.execute(
          'insert into user_deletion_log (id, user_id, email_hash, actor_user_id, actor_email, reason, created_at) values (?, ?, ?, ?, ?, ?, ?)',
          [randomUUID(), userId, emailHash(user.email), request.actor?.userId ?? null, request.actor?.email ?? null, request.reason, new Date()],
          'run',
          trx,
        );
        // (4) the subscriptions to cancel at Stripe after the commit, owed durably from now
        owed = (await rows(`select id from billing_subscription where user_id = ? and ${LIVE_SUBSCRIPTION}`)).map((r) => r.id as string);
        if (owed.length && this.canceller) await this.canceller.owe(tx, userId, owed);
        // (3) kept, anonymised (the usage totals' trigger takes them off the user's figures)
        await run('update usage_event set user_id = null, api_key_id = null where user_id = ?');
        await run('update feedback_report set user_id = null, api_key_id = null where user_id = ?');
        // (2) gone
        await run('delete from api_key where user_id = ?');
        await run('delete from identity_link where user_id = ?');
        await run('delete from password_reset where user_id = ?');
        await run('delete from ended_session where user_id = ?');
        // its seat in a team workspace is free again (teams; an owner's members fall back to Free with it)
        await run('delete from workspace_member where user_id = ?');
        // the authorization server's grants, codes, refresh tokens and sign-in sessions of the account
        await run("delete from oauth_model where payload->>'accountId' = ?");
        await run('delete from billing_subscription where user_id = ?');
        await run('delete from billing_checkout_session where user_id = ?');
        await run('delete from credit_ledger where user_id = ?');
        await run('delete from legal_assent where user_id = ?');
        await run('delete from billing_account where user_id = ?');
        await run('delete from plan_override where user_id = ?');
        // Its team workspace ends with it: the subscription paying for it is the erased account's and
        // is cancelled, so no one could carry it on; members, invites and domains go, and the
        // members are back in their personal workspaces on Free, their keys working (docs/admin.md).
        for (const table of ['workspace_member', 'workspace_invite', 'workspace_domain']) {
          await run(`delete from ${table} where workspace_id in (select id from workspace where owner_user_id = ?)`);
        }
        await run('delete from workspace where owner_user_id = ?');
        await inTransaction?.(tx);
        await run('delete from app_user where id = ?');
        return true;
      });
      if (!erased) forgotten.undo();
      else if (owed.length && this.canceller) await this.canceller.cancelOwed(owed);
      return erased;
    } catch (error) {
      forgotten.undo();
      throw error;
    }
  }
}
