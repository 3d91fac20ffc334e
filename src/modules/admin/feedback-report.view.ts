/**
 * The one mapping of a feedback report row to what the doors return: the admin area sees every
 * field (feedback-admin.service.ts); the reporter gets back the report without the admin's fields
 * (feedback.service.ts). Times are ISO strings.
 */
import type { FeedbackReport, FeedbackStatus } from './feedback-report.entity.js';

/** A report as the admin area shows it. */
export interface FeedbackReportRecord {
  id: string;
  source: string;
  source_id: string | null;
  issue_type: string;
  description: string;
  status: FeedbackStatus;
  channel: string;
  user_id: string | null;
  forwarded_url: string | null;
  status_note: string | null;
  created_at: string;
  updated_at: string | null;
}

/** A report as its reporter gets it back. */
export type FeedbackReportView = Omit<FeedbackReportRecord, 'channel' | 'user_id' | 'forwarded_url' | 'status_note' | 'updated_at'>;

/** The report with every field the admin area shows. */
export function feedbackReportRecord(row: FeedbackReport): FeedbackReportRecord {
  return {
    id: row.id,
    source: row.source,
    source_id: row.source_id ?? null,
    issue_type: row.issue_type,
    description: row.description,
    status: row.status as FeedbackStatus,
    channel: row.channel,
    user_id: row.user_id ?? null,
    forwarded_url: row.forwarded_url ?? null,
    status_note: row.status_note ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}

/** The report as its reporter gets it back: without the channel, reporter id and the admin's fields. */
export function feedbackReportView(row: FeedbackReport): FeedbackReportView {
  const { channel: _channel, user_id: _userId, forwarded_url: _forwardedUrl, status_note: _statusNote, updated_at: _updatedAt, ...view } = feedbackReportRecord(row);
  return view;
}
