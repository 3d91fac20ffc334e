/**
 * The admin side of feedback reports: the list (newest first) and their transitions. A report
 * starts `open`; an administrator forwards it (optionally with the URL of the issue created
 * elsewhere), resolves or dismisses it. Resolved and dismissed are closed: a closed report does
 * not move again (409), and `open` is never set by hand (422, as any value but the three).
 * Every change is audited in its transaction.
 */
import { LockMode, type MikroORM } from '@mikro-orm/core';
import { z } from 'zod';
import type { RequestContext } from '../../context.js';
import { DomainError, NotFoundError } from '../../errors.js';
import { laxInt, parseInput } from '../../validation.js';
import { requireAdmin } from './admin-access.js';
import { reportIdParamsSchema } from './admin.schema.js';
import { recordAudit } from './audit-log.js';
import { type FeedbackReport, FeedbackReportEntity, FEEDBACK_STATUSES } from './feedback-report.entity.js';
import { feedbackReportRecord } from './feedback-report.view.js';
import type { OperationLimiter } from '../usage/operation-limits.js';

export const feedbackQuerySchema = z
  .object({
    status: z.enum([...FEEDBACK_STATUSES, 'all']).default('open'),
    limit: laxInt(z.number().int().min(1).max(200)).default(50),
  })
  .meta({ id: 'AdminFeedbackQuery' });

export const SETTABLE_STATUSES = ['resolved', 'dismissed', 'forwarded'] as const;

export const feedbackUpdateSchema = z
  .object({ status: z.enum(SETTABLE_STATUSES), note: z.string().trim().max(2000).nullish() })
  .meta({ id: 'FeedbackUpdateRequest' });

export const markForwardedSchema = z
  .object({
    url: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/$.?#][^\s]*$/i, 'must be an http(s) URL')
      .describe('The URL of the issue created elsewhere (http or https, at most 2,048 characters)'),
  })
  .meta({ id: 'MarkForwardedRequest' });

export const adminFeedbackReportSchema = z
  .object({
    id: z.string(),
    source: z.string(),
    source_id: z.string().nullable(),
    issue_type: z.string(),
    description: z.string(),
    status: z.enum(FEEDBACK_STATUSES),
    channel: z.string(),
    user_id: z.string().nullable(),
    forwarded_url: z.string().nullable(),
    status_note: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'AdminFeedbackReport' });
export type AdminFeedbackReport = z.infer<typeof adminFeedbackReportSchema>;

export const adminFeedbackListSchema = z
  .object({ status: z.string(), total: z.number().int(), reports: z.array(adminFeedbackReportSchema) })
  .meta({ id: 'AdminFeedbackResponse' });

const CLOSED = new Set(['resolved', 'dismissed']);

/** A report moves on only while it is not closed (resolved, dismissed): 409 otherwise. */
export function assertReportCanMove(status: string): void {
  if (CLOSED.has(status)) throw new DomainError('conflict', `The report is ${status}: a closed report does not change`);
}

export class FeedbackAdminService {
  constructor(private readonly deps: { orm: MikroORM; limits: OperationLimiter }) {}

  async list(ctx: RequestContext, input: unknown): Promise<z.infer<typeof adminFeedbackListSchema>> {
    requireAdmin(ctx);
    const query = parseInput(feedbackQuerySchema, input);
    const where = query.status === 'all' ? {} : { status: query.status };
    const [rows, total] = await this.deps.orm.em
      .fork()
      .findAndCount(FeedbackReportEntity, where, { orderBy: { created_at: 'desc', id: 'asc' }, limit: query.limit });
    return { status: query.status, total, reports: rows.map(feedbackReportRecord) };
  }

  /** PATCH: resolved, dismissed or forwarded, with an optional note. */
  async update(ctx: RequestContext, params: unknown, body: unknown): Promise<AdminFeedbackReport> {
    await this.deps.limits.check(ctx, 'admin_feedback_update');
    const admin = requireAdmin(ctx);
    const { report_id } = parseInput(reportIdParamsSchema, params);
    const input = parseInput(feedbackUpdateSchema, body);
    return this.transition(ctx, report_id, (row) => {
      const before = { status: row.status, status_note: row.status_note ?? null };
      row.status = input.status;
      if (input.note !== undefined) row.status_note = input.note;
      return (em) => recordAudit(em, admin, { action: 'feedback.status', target_type: 'feedback_report', target_id: row.id, before, after: { status: row.status, status_note: row.status_note ?? null }, reason: input.note ?? null });
    });
  }

  /** POST mark-forwarded: forwarded, keeping the URL of the issue created elsewhere. */
  async markForwarded(ctx: RequestContext, params: unknown, body: unknown): Promise<AdminFeedbackReport> {
    await this.deps.limits.check(ctx, 'admin_feedback_forward');
    const admin = requireAdmin(ctx);
    const { report_id } = parseInput(reportIdParamsSchema, params);
    const { url } = parseInput(markForwardedSchema, body);
    return this.transition(ctx, report_id, (row) => {
      const before = { status: row.status, forwarded_url: row.forwarded_url ?? null };
      row.status = 'forwarded';
      row.forwarded_url = url;
      return (em) => recordAudit(em, admin, { action: 'feedback.mark_forwarded', target_type: 'feedback_report', target_id: row.id, before, after: { status: 'forwarded', forwarded_url: url } });
    });
  }

  /** Loads the report locked, refuses moving a closed one, applies `change`, audits, commits. */
  private transition(ctx: RequestContext, reportId: string, change: (row: FeedbackReport) => (em: Parameters<typeof recordAudit>[0]) => void): Promise<AdminFeedbackReport> {
    return ctx.em.transactional(async (em) => {
      const row = await em.findOne(FeedbackReportEntity, { id: reportId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) throw new NotFoundError('Feedback report not found');
      assertReportCanMove(row.status);
      const audit = change(row);
      row.updated_at = new Date();
      audit(em);
      await em.flush();
      return feedbackReportRecord(row);
    });
  }
}
