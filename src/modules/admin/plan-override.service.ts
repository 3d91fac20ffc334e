/**
 * PATCH /v1/admin/users/{user_id}: an administrator's plan override. It is one row in
 * `plan_override`; both authenticators read the effective plan through it
 * (src/modules/accounts/effective-plan.ts), so it applies from the user's next request, limits
 * included, and wins over the subscription until it is removed (`plan: null`). Billing status
 * shows it as `admin_override`. Every change is in the audit log, in the same transaction.
 */
import type { MikroORM } from '@mikro-orm/core';
import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import { requireAdmin } from './admin-access.js';
import { lockUser } from '../accounts/app-user.queries.js';
import { PlanOverrideEntity } from './admin.entities.js';
import { planOverrideBodySchema, planOverrideViewSchema, userIdParamsSchema } from './admin.schema.js';
import { recordAudit } from './audit-log.js';
import type { OperationLimiter } from '../usage/operation-limits.js';

export const planOverrideAnswerSchema = z
  .object({
    user_id: z.string(),
    plan: z.string().describe('The effective plan from the next request on'),
    subscription_plan: z.string(),
    override: planOverrideViewSchema.nullable(),
  })
  .meta({ id: 'PlanOverrideResponse' });
export type PlanOverrideAnswer = z.infer<typeof planOverrideAnswerSchema>;

export class PlanOverrideService {
  constructor(private readonly deps: { orm: MikroORM; limits: OperationLimiter }) {}

  async set(ctx: RequestContext, params: unknown, body: unknown): Promise<PlanOverrideAnswer> {
    await this.deps.limits.check(ctx, 'admin_plan_override');
    const admin = requireAdmin(ctx);
    const { user_id } = parseInput(userIdParamsSchema, params);
    const input = parseInput(planOverrideBodySchema, body);
    return ctx.em.transactional(async (em) => {
      // the user's row locked: an erasure running at the same time waits, or this finds no user
      const user = await lockUser(em, user_id);
      if (!user) throw new NotFoundError('User not found');
      const existing = await em.findOne(PlanOverrideEntity, { user_id });
      const before = existing ? { plan: existing.plan, reason: existing.reason ?? null } : null;
      let override: PlanOverrideAnswer['override'] = null;
      if (input.plan === null) {
        if (existing) em.remove(existing);
      } else {
        const row = existing ?? em.create(PlanOverrideEntity, { user_id, plan: input.plan, set_at: new Date() });
        row.plan = input.plan;
        row.reason = input.reason ?? null;
        row.set_by_user_id = admin.userId;
        row.set_at = new Date();
        override = { plan: row.plan, reason: row.reason ?? null, set_by_user_id: admin.userId, set_at: row.set_at.toISOString() };
      }
      recordAudit(em, admin, {
        action: 'user.plan_override',
        target_type: 'user',
        target_id: user_id,
        before: { override: before, subscription_plan: user.plan },
        after: { override: override ? { plan: override.plan, reason: override.reason } : null },
        reason: input.reason ?? null,
      });
      await em.flush();
      return { user_id, plan: override?.plan ?? user.plan, subscription_plan: user.plan, override };
    });
  }
}
