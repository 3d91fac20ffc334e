/**
 * Erasure of an account, by its holder (DELETE /auth/me) or by an administrator
 * (DELETE /v1/admin/users/{user_id}), by the spec's rules: in one transaction a deletion-log row
 * (user id, a hash of the e-mail, actor, time, reason) is written before the user row goes; keys,
 * links, one-time tokens, ended sessions, OAuth grants and tokens, billing rows and the plan
 * override are deleted; usage rows and feedback reports stay, anonymised. Sessions and access
 * tokens stop at once: they are checked against the user row on every request. Stripe
 * subscriptions are cancelled after the commit (best effort, retried later, never undoing it).
 */
import { createHash } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { type RequestContext, requireAccount } from '../../context.js';
import { parseInput } from '../../validation.js';
import type { UsageService } from '../usage/usage.service.js';
import { deleteAccountBodySchema } from './account.schema.js';
import { anonymiseKeptRows, deleteAccountRows, deleteOwnedWorkspaces, deleteUserRow, insertDeletionLog, liveSubscriptionIds } from './account-deletion.queries.js';
import { lockUser } from './app-user.queries.js';

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

/** The deletion log's hash of an address: SHA-256 of the trimmed, lower-cased e-mail. */
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
    await this.erase(ctx, { userId: caller.userId, actor: null, reason: 'deleted by the account holder' });
  }

  /**
   * Erases the account; false when there is none. `inTransaction` runs inside the erasure's
   * transaction (the admin audit entry). The statements are in account-deletion.queries.ts.
   */
  async erase(ctx: RequestContext, request: ErasureRequest, inTransaction?: (tx: EntityManager) => Promise<void> | void): Promise<boolean> {
    const { userId } = request;
    // from here on, queued and future usage rows of this account are written without its ids
    const forgotten = this.deps.usage.forgetAccount(userId);
    let owed: string[] = [];
    try {
      await this.deps.usage.flush();
      const erased = await ctx.em.transactional(async (tx) => {
        const user = await lockUser(tx, userId);
        if (!user) return false;
        // (1) the deletion log first, in this transaction
        await insertDeletionLog(tx, {
          userId,
          emailHash: emailHash(user.email),
          actorUserId: request.actor?.userId ?? null,
          actorEmail: request.actor?.email ?? null,
          reason: request.reason,
        });
        // (4) the subscriptions to cancel at Stripe after the commit, owed durably from now
        owed = await liveSubscriptionIds(tx, userId);
        if (owed.length && this.canceller) await this.canceller.owe(tx, userId, owed);
        // (3) kept, anonymised
        await anonymiseKeptRows(tx, userId, forgotten.erasedKey);
        // (2) gone: keys, links, tokens, sessions, its seat, OAuth grants, billing rows, plan override
        await deleteAccountRows(tx, userId);
        // Its team workspace ends with it: the subscription paying for it is the erased account's and
        // is cancelled, so no one could carry it on; members, invites and domains go, and the
        // members are back in their personal workspaces on Free, their keys working (docs/admin.md).
        await deleteOwnedWorkspaces(tx, userId);
        await inTransaction?.(tx);
        await deleteUserRow(tx, userId);
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
