/**
 * The audit log of administrative writes: who did what to which record, the state before and
 * after where it matters, and why. Entries are written in the transaction of the write they
 * describe, so a write is never without its entry nor an entry without its write.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { z } from 'zod';
import type { AccountCaller, RequestContext } from '../../context.js';
import { laxInt, parseInput } from '../../validation.js';
import { requireAdmin } from './admin-access.js';
import { AdminAuditEntryEntity } from './admin.entities.js';
import { placeholders, sqlRows } from '../../util/raw-sql.js';

/** Every action the service writes (the GraphQL `AuditAction` enum is built from this list). */
export const AUDIT_ACTIONS = ['user.plan_override', 'user.erase', 'user.partner_scope', 'user.partner_remove', 'feedback.status', 'feedback.mark_forwarded'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditRecord {
  action: AuditAction;
  target_type: 'user' | 'feedback_report';
  target_id: string;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** Adds an entry to the unit of work of `em` (flushed with the write it describes). */
export function recordAudit(em: EntityManager, actor: AccountCaller, entry: AuditRecord): void {
  em.create(AdminAuditEntryEntity, {
    id: randomUUID(),
    actor_user_id: actor.userId,
    actor_email: actor.email,
    action: entry.action,
    target_type: entry.target_type,
    target_id: entry.target_id,
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason ?? null,
    created_at: new Date(),
  });
}

export const auditQuerySchema = z
  .object({
    limit: laxInt(z.number().int().min(1).max(200)).default(50),
    offset: laxInt(z.number().int().min(0)).default(0),
    action: z.string().max(100).optional().describe('Only entries of this action (e.g. user.erase)'),
    target_id: z.string().max(200).optional().describe('Only entries about this record'),
  })
  .meta({ id: 'AdminAuditQuery' });

export const auditEntrySchema = z
  .object({
    id: z.string(),
    actor_user_id: z.string().nullable(),
    actor_email: z.string(),
    action: z.string(),
    target_type: z.string(),
    target_id: z.string(),
    target_email: z.string().nullable().describe("Additive: a user target's current e-mail address (null once erased, and for other targets)."),
    before: z.unknown(),
    after: z.unknown(),
    reason: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminAuditEntry' });

export const auditPageSchema = z.object({ total: z.number().int(), items: z.array(auditEntrySchema) }).meta({ id: 'AdminAuditPage' });
export type AuditPage = z.infer<typeof auditPageSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The current e-mail addresses of the accounts among `ids` (an erased account has none). */
async function userEmailsOf(em: EntityManager, ids: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await sqlRows<{ id: string; email: string }>(em, `select id, email from app_user where id in (${placeholders(wanted)})`, wanted);
  return new Map(rows.map((r) => [r.id, r.email]));
}

export class AuditLogService {
  constructor(private readonly deps: { orm: MikroORM }) {}

  /** The log, newest first, paged. */
  async list(ctx: RequestContext, input: unknown): Promise<AuditPage> {
    requireAdmin(ctx);
    const query = parseInput(auditQuerySchema, input);
    const where = {
      ...(query.action ? { action: query.action } : {}),
      ...(query.target_id ? { target_id: query.target_id } : {}),
    };
    const [rows, total] = await this.deps.orm.em
      .fork()
      .findAndCount(AdminAuditEntryEntity, where, { orderBy: { created_at: 'desc', id: 'asc' }, limit: query.limit, offset: query.offset });
    const emails = await userEmailsOf(
      ctx.em,
      rows.filter((row) => row.target_type === 'user').map((row) => row.target_id),
    );
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        actor_user_id: row.actor_user_id ?? null,
        actor_email: row.actor_email,
        action: row.action,
        target_type: row.target_type,
        target_id: row.target_id,
        target_email: row.target_type === 'user' ? (emails.get(row.target_id) ?? null) : null,
        before: row.before ?? null,
        after: row.after ?? null,
        reason: row.reason ?? null,
        created_at: row.created_at.toISOString(),
      })),
    };
  }
}
