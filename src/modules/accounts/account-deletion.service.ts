/**
 * Account deletion (DELETE /auth/me): the account and everything that names it go in one
 * transaction; usage rows and feedback reports stay, anonymised.
 */
import type { MikroORM } from '@mikro-orm/core';
import { type RequestContext, requireAccount } from '../../context.js';
import { parseInput } from '../../validation.js';
import type { UsageService } from '../usage/usage.service.js';
import { deleteAccountBodySchema } from './account.schema.js';

export class AccountDeletionService {
  constructor(private readonly deps: { orm: MikroORM; usage: UsageService }) {}

  /**
   * Deletes the account and its keys, links, one-time tokens, ended sessions and OAuth grants,
   * and anonymises its usage rows (written or still queued in the batch writer, and those of
   * calls still running) and its feedback reports, in one transaction. Bulk statements in raw
   * SQL: they touch tables of other modules (usage, feedback, the authorization server's rows)
   * and the jsonb match on `oauth_model` has no entity query form.
   */
  async deleteMe(ctx: RequestContext, input: unknown): Promise<void> {
    const caller = requireAccount(ctx);
    parseInput(deleteAccountBodySchema, input);
    // from here on, queued and future usage rows of this account are written without its ids
    const forgotten = this.deps.usage.forgetAccount(caller.userId);
    try {
      await this.deps.usage.flush();
      await this.deps.orm.em.fork().transactional(async (tx) => {
        const connection = tx.getConnection();
        const trx = tx.getTransactionContext();
        const run = (sql: string) => connection.execute(sql, [caller.userId], 'run', trx);
        await run('update usage_event set user_id = null, api_key_id = null where user_id = ?');
        // the reports stay for the editors, without their reporter (src/modules/admin/feedback-report.entity.ts)
        await run('update feedback_report set user_id = null, api_key_id = null where user_id = ?');
        await run('delete from api_key where user_id = ?');
        await run('delete from identity_link where user_id = ?');
        await run('delete from password_reset where user_id = ?');
        await run('delete from ended_session where user_id = ?');
        // its seat in a team workspace is free again (teams; an owner's members fall back to Free with it)
        await run('delete from workspace_member where user_id = ?');
        // the authorization server's grants, codes, refresh tokens and sign-in sessions of the account
        await run("delete from oauth_model where payload->>'accountId' = ?");
        await run('delete from app_user where id = ?');
      });
    } catch (error) {
      forgotten.undo();
      throw error;
    }
  }
}
