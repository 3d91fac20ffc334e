/**
 * DELETE /v1/admin/users/{user_id}: an administrator erases an account, by the spec's rules
 * (src/modules/accounts/account-deletion.service.ts does the erasure itself). The audit entry is
 * written in the erasure's transaction; an administrator cannot erase themself (409).
 */
import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import { parseInput } from '../../validation.js';
import type { AccountDeletionService } from '../accounts/account-deletion.service.js';
import { requireAdmin } from './admin-access.js';
import { eraseUserBodySchema, userIdParamsSchema } from './admin.schema.js';
import { recordAudit } from './audit-log.js';
import type { OperationLimiter } from '../usage/operation-limits.js';

export const erasureAnswerSchema = z.object({ status: z.literal('erased'), user_id: z.string() }).meta({ id: 'UserErasureResponse' });

export class UserErasureService {
  constructor(private readonly deps: { deletion: AccountDeletionService; limits: OperationLimiter }) {}

  async erase(ctx: RequestContext, params: unknown, body: unknown): Promise<z.infer<typeof erasureAnswerSchema>> {
    await this.deps.limits.check(ctx, 'admin_erase_user');
    const admin = requireAdmin(ctx);
    const { user_id } = parseInput(userIdParamsSchema, params);
    const { reason } = parseInput(eraseUserBodySchema, body ?? {});
    if (user_id === admin.userId) throw new DomainError('conflict', 'An administrator cannot erase their own account here');
    const erased = await this.deps.deletion.erase(ctx, { userId: user_id, actor: { userId: admin.userId, email: admin.email }, reason: reason ?? null }, (tx) =>
      recordAudit(tx, admin, { action: 'user.erase', target_type: 'user', target_id: user_id, reason: reason ?? null }),
    );
    if (!erased) throw new NotFoundError('User not found');
    return { status: 'erased', user_id };
  }
}
