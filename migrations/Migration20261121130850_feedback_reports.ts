/** Feedback reports: problems with a source or a document reported by agents (MCP) and users. */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261121130850_feedback_reports extends Migration {

  override name = 'Migration20261121130850_feedback_reports';

  override up(): void | Promise<void> {
    this.addSql(`create table "feedback_report" ("id" uuid not null, "user_id" uuid null, "api_key_id" uuid null, "source" text not null, "source_id" text null, "issue_type" text not null, "description" text not null, "status" text not null default 'open', "channel" text not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "feedback_report_status_created_at_index" on "feedback_report" ("status", "created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "feedback_report" cascade;`);
  }

}
