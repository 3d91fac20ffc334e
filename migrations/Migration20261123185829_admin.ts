/** Administration: audit log, erasure log, plan overrides, owed Stripe cancellations, feedback forwarding, and usage totals kept by triggers. */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261123185829_admin extends Migration {

  override name = 'Migration20261123185829_admin';

  override up(): void | Promise<void> {
    this.addSql(`create table "admin_audit_log" ("id" uuid not null, "actor_user_id" uuid null, "actor_email" text not null, "action" text not null, "target_type" text not null, "target_id" text not null, "before" jsonb null, "after" jsonb null, "reason" text null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "admin_audit_log_created_at_index" on "admin_audit_log" ("created_at");`);

    this.addSql(`create table "pending_stripe_cancellation" ("subscription_id" text not null, "user_id" uuid not null, "attempts" int not null default 0, "last_error" text null, "next_attempt_at" timestamptz not null, "completed_at" timestamptz null, "created_at" timestamptz not null, primary key ("subscription_id"));`);
    this.addSql(`create index "pending_stripe_cancellation_next_attempt_at_index" on "pending_stripe_cancellation" ("next_attempt_at");`);

    this.addSql(`create table "plan_override" ("user_id" uuid not null, "plan" text not null, "reason" text null, "set_by_user_id" uuid null, "set_at" timestamptz not null, primary key ("user_id"));`);

    this.addSql(`create table "usage_daily_endpoint" ("day" date not null, "endpoint" text not null, "requests" bigint not null, primary key ("day", "endpoint"));`);

    this.addSql(`create table "usage_user_day" ("user_id" uuid not null, "day" date not null, "requests" bigint not null, primary key ("user_id", "day"));`);

    this.addSql(`create table "usage_user_endpoint" ("user_id" uuid not null, "endpoint" text not null, "requests" bigint not null, primary key ("user_id", "endpoint"));`);

    this.addSql(`create table "usage_user_summary" ("user_id" uuid not null, "requests" bigint not null, "first_at" timestamptz not null, "last_at" timestamptz not null, primary key ("user_id"));`);
    this.addSql(`create index "usage_user_summary_last_at_index" on "usage_user_summary" ("last_at");`);

    this.addSql(`create table "user_deletion_log" ("id" uuid not null, "user_id" uuid not null, "email_hash" text not null, "actor_user_id" uuid null, "actor_email" text null, "reason" text null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "user_deletion_log_user_id_index" on "user_deletion_log" ("user_id");`);

    this.addSql(`alter table "feedback_report" add "forwarded_url" text null, add "status_note" text null, add "updated_at" timestamptz null;`);

    // Usage totals for the admin area (src/modules/admin/usage-rollups.entities.ts): one
    // statement-level trigger per insert adds the new rows, one per update takes anonymised rows
    // off the per-user totals. Then the totals of the rows already there.
    this.addSql(`create or replace function usage_rollup_add() returns trigger language plpgsql as $$
begin
  insert into usage_daily_endpoint (day, endpoint, requests)
    select (created_at at time zone 'UTC')::date, endpoint, count(*) from usage_new group by 1, 2
    on conflict (day, endpoint) do update set requests = usage_daily_endpoint.requests + excluded.requests;
  insert into usage_user_summary (user_id, requests, first_at, last_at)
    select user_id, count(*), min(created_at), max(created_at) from usage_new where user_id is not null group by 1
    on conflict (user_id) do update set requests = usage_user_summary.requests + excluded.requests,
      first_at = least(usage_user_summary.first_at, excluded.first_at), last_at = greatest(usage_user_summary.last_at, excluded.last_at);
  insert into usage_user_day (user_id, day, requests)
    select user_id, (created_at at time zone 'UTC')::date, count(*) from usage_new where user_id is not null group by 1, 2
    on conflict (user_id, day) do update set requests = usage_user_day.requests + excluded.requests;
  insert into usage_user_endpoint (user_id, endpoint, requests)
    select user_id, endpoint, count(*) from usage_new where user_id is not null group by 1, 2
    on conflict (user_id, endpoint) do update set requests = usage_user_endpoint.requests + excluded.requests;
  return null;
end $$;`);
    this.addSql(`create trigger usage_event_rollup_insert after insert on usage_event referencing new table as usage_new for each statement execute function usage_rollup_add();`);
    this.addSql(`create or replace function usage_rollup_anonymise() returns trigger language plpgsql as $$
begin
  create temporary table if not exists usage_gone (user_id uuid, day date, endpoint text) on commit drop;
  truncate usage_gone;
  insert into usage_gone select o.user_id, (o.created_at at time zone 'UTC')::date, o.endpoint
    from usage_old o join usage_new n on n.id = o.id where o.user_id is not null and n.user_id is distinct from o.user_id;
  update usage_user_summary s set requests = s.requests - g.n from (select user_id, count(*) n from usage_gone group by 1) g where s.user_id = g.user_id;
  delete from usage_user_summary where requests <= 0;
  update usage_user_day s set requests = s.requests - g.n from (select user_id, day, count(*) n from usage_gone group by 1, 2) g where s.user_id = g.user_id and s.day = g.day;
  delete from usage_user_day where requests <= 0;
  update usage_user_endpoint s set requests = s.requests - g.n from (select user_id, endpoint, count(*) n from usage_gone group by 1, 2) g where s.user_id = g.user_id and s.endpoint = g.endpoint;
  delete from usage_user_endpoint where requests <= 0;
  return null;
end $$;`);
    this.addSql(`create trigger usage_event_rollup_anonymise after update on usage_event referencing old table as usage_old new table as usage_new for each statement execute function usage_rollup_anonymise();`);
    this.addSql(`insert into usage_daily_endpoint (day, endpoint, requests) select (created_at at time zone 'UTC')::date, endpoint, count(*) from usage_event group by 1, 2;`);
    this.addSql(`insert into usage_user_summary (user_id, requests, first_at, last_at) select user_id, count(*), min(created_at), max(created_at) from usage_event where user_id is not null group by 1;`);
    this.addSql(`insert into usage_user_day (user_id, day, requests) select user_id, (created_at at time zone 'UTC')::date, count(*) from usage_event where user_id is not null group by 1, 2;`);
    this.addSql(`insert into usage_user_endpoint (user_id, endpoint, requests) select user_id, endpoint, count(*) from usage_event where user_id is not null group by 1, 2;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists usage_event_rollup_insert on usage_event;`);
    this.addSql(`drop trigger if exists usage_event_rollup_anonymise on usage_event;`);
    this.addSql(`drop function if exists usage_rollup_add();`);
    this.addSql(`drop function if exists usage_rollup_anonymise();`);
    this.addSql(`drop table if exists "admin_audit_log" cascade;`);
    this.addSql(`drop table if exists "pending_stripe_cancellation" cascade;`);
    this.addSql(`drop table if exists "plan_override" cascade;`);
    this.addSql(`drop table if exists "usage_daily_endpoint" cascade;`);
    this.addSql(`drop table if exists "usage_user_day" cascade;`);
    this.addSql(`drop table if exists "usage_user_endpoint" cascade;`);
    this.addSql(`drop table if exists "usage_user_summary" cascade;`);
    this.addSql(`drop table if exists "user_deletion_log" cascade;`);

    this.addSql(`alter table "feedback_report" drop column "forwarded_url", drop column "status_note", drop column "updated_at";`);
  }

}
