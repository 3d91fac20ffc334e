/**
 * Feedback reports about sources and documents. `reportSourceIssue` is what the MCP tool
 * `report_source_issue` calls (and later the dashboard): it validates the report, charges it
 * like every agent call, and stores it with status `open` for the admin area.
 */
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { z } from 'zod';
import { isAccount, type RequestContext } from '../../context.js';
import type { UsageGuard } from '../usage/usage-guard.js';
import { parseInput } from '../../validation.js';
import { FEEDBACK_STATUSES, FeedbackReportEntity } from './feedback-report.entity.js';
import { feedbackReportView, type FeedbackReportView } from './feedback-report.view.js';

export const ISSUE_TYPES = ['wrong_metadata', 'missing_documents', 'broken_text', 'outdated', 'wrong_link', 'duplicate', 'other'] as const;

export const sourceIssueSchema = z.object({
  source: z
    .string()
    .regex(/^[^/]+\/[^/]+$/, 'must be <country>/<source_name>')
    .describe('The source concerned, as <country>/<source_name> (e.g. DE/BGH), as given in search hits or by discover_sources.'),
  source_id: z
    .string()
    .min(1)
    .max(500)
    .nullish()
    .describe('The source_id of the document concerned, when the problem is about one document.'),
  issue_type: z.enum(ISSUE_TYPES).default('other').describe(`Kind of problem: ${ISSUE_TYPES.join(', ')}.`),
  description: z
    .string()
    .trim()
    .min(10)
    .max(5000)
    .describe('What is wrong, precisely enough for an editor to check it (10-5000 characters): what you expected and what you found.'),
});

export type SourceIssueInput = z.input<typeof sourceIssueSchema>;

/** The stored report as its reporter gets it back (FeedbackReportView): the answer of `reportSourceIssue`. */
export const sourceIssueReportSchema = z.object({
  id: z.string(),
  source: z.string(),
  source_id: z.string().nullable(),
  issue_type: z.string(),
  description: z.string(),
  status: z.enum(FEEDBACK_STATUSES),
  created_at: z.string(),
});

export type { FeedbackReportView } from './feedback-report.view.js';

export class FeedbackService {
  constructor(private readonly deps: { orm: MikroORM; usage: UsageGuard }) {}

  /** Stores a report about a source or document with status `open`; billable (counted and limited). */
  reportSourceIssue(ctx: RequestContext, input: unknown): Promise<FeedbackReportView> {
    return this.deps.usage.charge(ctx, 'report_source_issue', async () => {
      const report = parseInput(sourceIssueSchema, input);
      const caller = ctx.caller;
      const em = ctx.em;
      const row = em.create(FeedbackReportEntity, {
        id: randomUUID(),
        user_id: isAccount(caller) ? caller.userId : null,
        api_key_id: isAccount(caller) ? caller.keyId : null,
        source: report.source,
        source_id: report.source_id ?? null,
        issue_type: report.issue_type,
        description: report.description,
        status: 'open',
        channel: ctx.door ?? 'rest',
        created_at: new Date(),
      });
      await em.flush();
      return feedbackReportView(row);
    });
  }
}
