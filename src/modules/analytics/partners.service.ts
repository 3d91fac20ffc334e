/**
 * Partner accounts (issue #35 item 2): an administrator makes an account a partner with a scope
 * (sources and/or countries), changes it, or removes it: `PUT`/`DELETE
 * /v1/admin/users/{user_id}/partner` and the admin subgraph's mutations. Each change is one
 * transaction with its audit entry (the user's row locked, as the plan override does, so an
 * erasure running at the same time waits or finds nothing).
 */
import { type RequestContext, requireAccount } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { lockUser } from '../accounts/app-user.queries.js';
import type { OperationLimiter } from '../usage/operation-limits.js';
import { requireAdmin } from '../admin/admin-access.js';
import { recordAudit } from '../admin/audit-log.js';
import { type AnalyticsPartner, AnalyticsPartnerEntity } from './analytics.entities.js';
import { type PartnerAnswer, partnerBodySchema, partnerPathSchema, partnerRemovalBodySchema } from './analytics.schema.js';

/** The answer shape of PUT and GET for a stored partner row. */
function answerOf(row: AnalyticsPartner): PartnerAnswer {
  return { user_id: row.user_id, sources: row.sources, countries: row.countries, updated_at: row.updated_at.toISOString() };
}

export class PartnersService {
  constructor(private readonly deps: { limits: Pick<OperationLimiter, 'check'> }) {}

  /**
   * The caller's own scope, null when the caller is no partner (401 without credentials). Not
   * counted against any limit: it is the caller's own record, like `me`.
   */
  async ownScope(ctx: RequestContext): Promise<PartnerAnswer | null> {
    const caller = requireAccount(ctx);
    const row = await ctx.em.findOne(AnalyticsPartnerEntity, { user_id: caller.userId });
    return row ? answerOf(row) : null;
  }

  /**
   * A user's scope, for administrators only (403 for anyone else); 404 when the user is no partner
   * (an unknown user has no partner row either: one answer, so the lookup tells nothing more).
   */
  async get(ctx: RequestContext, params: unknown): Promise<PartnerAnswer> {
    requireAdmin(ctx);
    const { user_id } = parseInput(partnerPathSchema, params);
    const row = await ctx.em.findOne(AnalyticsPartnerEntity, { user_id });
    if (!row) throw new NotFoundError('Unknown user, or not a partner');
    return answerOf(row);
  }

  /** Makes the user a partner with this scope, or replaces its scope. */
  async set(ctx: RequestContext, params: unknown, body: unknown): Promise<PartnerAnswer> {
    await this.deps.limits.check(ctx, 'admin_partner_set');
    const admin = requireAdmin(ctx);
    const { user_id } = parseInput(partnerPathSchema, params);
    const input = parseInput(partnerBodySchema, body);
    const sources = [...new Set(input.sources)].sort();
    const countries = [...new Set(input.countries)].sort();
    return ctx.em.transactional(async (em) => {
      if (!(await lockUser(em, user_id))) throw new NotFoundError('User not found');
      const existing = await em.findOne(AnalyticsPartnerEntity, { user_id });
      const before = existing ? { sources: existing.sources, countries: existing.countries } : null;
      const row = existing ?? em.create(AnalyticsPartnerEntity, { user_id, sources, countries, updated_at: new Date() });
      Object.assign(row, { sources, countries, set_by_user_id: admin.userId, updated_at: new Date() });
      recordAudit(em, admin, { action: 'user.partner_scope', target_type: 'user', target_id: user_id, before, after: { sources, countries }, reason: input.reason ?? null });
      await em.flush();
      return answerOf(row);
    });
  }

  /** Ends the user's partnership: 404 when the user is unknown or no partner. */
  async remove(ctx: RequestContext, params: unknown, body: unknown): Promise<{ user_id: string; removed: boolean }> {
    await this.deps.limits.check(ctx, 'admin_partner_remove');
    const admin = requireAdmin(ctx);
    const { user_id } = parseInput(partnerPathSchema, params);
    const input = parseInput(partnerRemovalBodySchema, body ?? {});
    return ctx.em.transactional(async (em) => {
      if (!(await lockUser(em, user_id))) throw new NotFoundError('User not found');
      const existing = await em.findOne(AnalyticsPartnerEntity, { user_id });
      if (!existing) throw new NotFoundError('The user is not a partner');
      recordAudit(em, admin, {
        action: 'user.partner_remove',
        target_type: 'user',
        target_id: user_id,
        before: { sources: existing.sources, countries: existing.countries },
        after: null,
        reason: input.reason ?? null,
      });
      em.remove(existing);
      await em.flush();
      return { user_id, removed: true };
    });
  }
}
