/**
 * A problem reported with a source or a document (by an agent through the MCP tool
 * `report_source_issue`, later also from the dashboard). Reports start `open`; the admin area
 * lists them and moves them on. The reporter's ids are kept as plain columns (no foreign key),
 * so deleting an account can anonymise its reports without losing them.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The spec's report states: open (new), forwarded (tracked as an external issue), resolved, dismissed. */
export const FEEDBACK_STATUSES = ['open', 'forwarded', 'resolved', 'dismissed'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

export const FeedbackReportEntity = defineEntity({
  name: 'FeedbackReport',
  tableName: 'feedback_report',
  indexes: [{ name: 'feedback_report_status_created_at_index', properties: ['status', 'created_at'] }],
  properties: {
    id: p.uuid().primary(),
    user_id: p.uuid().nullable(),
    api_key_id: p.uuid().nullable(),
    /** `<country>/<source_name>`. */
    source: p.text(),
    /** Set when the report is about one document of the source. */
    source_id: p.text().nullable(),
    issue_type: p.text(),
    description: p.text(),
    status: p.text().default('open'),
    /** Which door the report came through (`mcp`, `rest`, `graphql`). */
    channel: p.text(),
    created_at: p.datetime(),
    /** The URL of the externally created issue (mark-forwarded). */
    forwarded_url: p.text().nullable(),
    /** The administrator's note of the last status change. */
    status_note: p.text().nullable(),
    updated_at: p.datetime().nullable(),
  },
});

export type FeedbackReport = InferEntity<typeof FeedbackReportEntity>;
