/**
 * Partner analytics (issue #35): daily usage per dimension and account (exact distinct accounts,
 * suppression per day cell), the fetched documents' metadata, the keys of batches already added
 * (idempotent writes), and partner accounts with their scope. Its PRIMARY KEY (kind, scope, item,
 * day, account) serves every analytics read: a dimension's days over a range.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127200948_analytics extends Migration {

  override name = 'Migration20261127200948_analytics';

  override up(): void | Promise<void> {
    this.addSql(`create table "analytics_account_day" ("kind" text not null, "scope" text not null, "item" text not null, "day" date not null, "account" text not null, "searches" int not null, "hits" int not null, "documents" int not null, "resolutions" int not null, "calls" int not null, primary key ("kind", "scope", "item", "day", "account"));`);

    this.addSql(`create table "analytics_document" ("source" text not null, "source_id" text not null, "namespace" text not null, "country" text not null, primary key ("source", "source_id"));`);

    this.addSql(`create table "analytics_partner" ("user_id" uuid not null, "sources" jsonb not null, "countries" jsonb not null, "set_by_user_id" uuid null, "updated_at" timestamptz not null, primary key ("user_id"));`);

    this.addSql(`create table "analytics_written_batch" ("batch_key" text not null, "written_at" timestamptz not null, primary key ("batch_key"));`);
    this.addSql(`create index "analytics_written_batch_written_at_index" on "analytics_written_batch" ("written_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "analytics_account_day" cascade;`);
    this.addSql(`drop table if exists "analytics_document" cascade;`);
    this.addSql(`drop table if exists "analytics_partner" cascade;`);
    this.addSql(`drop table if exists "analytics_written_batch" cascade;`);
  }

}
