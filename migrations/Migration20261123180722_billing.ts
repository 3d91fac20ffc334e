/** Billing: Stripe customers, audience and auto top-up, subscriptions, legal assent, checkout sessions, processed webhook events, the credit ledger, and team workspaces. */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261123180722_billing extends Migration {

  override name = 'Migration20261123180722_billing';

  override up(): void | Promise<void> {
    this.addSql(`create table "billing_account" ("user_id" uuid not null, "stripe_customer_id" text null, "audience" text null, "auto_topup_enabled" boolean not null default false, "auto_topup_threshold_usd" int not null default 10, "auto_topup_amount_usd" int not null default 10, "auto_topup_failure" text null, "auto_topup_failed_at" timestamptz null, "auto_topup_started_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("user_id"));`);
    this.addSql(`alter table "billing_account" add constraint "billing_account_stripe_customer_id_unique" unique ("stripe_customer_id");`);

    this.addSql(`create table "billing_checkout_session" ("id" text not null, "user_id" uuid not null, "mode" text not null, "plan" text null, "interval" text null, "quantity" int null, "workspace_name" text null, "assent_id" uuid null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "billing_checkout_session_user_id_index" on "billing_checkout_session" ("user_id");`);

    this.addSql(`create table "credit_ledger" ("id" uuid not null, "user_id" uuid not null, "kind" text not null, "amount_micro_usd" bigint not null, "reference" text null, "note" text null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "credit_ledger_user_id_index" on "credit_ledger" ("user_id");`);
    this.addSql(`alter table "credit_ledger" add constraint "credit_ledger_reference_unique" unique ("reference");`);

    this.addSql(`create table "legal_assent" ("id" uuid not null, "user_id" uuid not null, "documents" jsonb not null, "order_summary" jsonb not null, "ip" text null, "user_agent" text null, "accepted_at" timestamptz not null, "checkout_session_id" text null, primary key ("id"));`);
    this.addSql(`create index "legal_assent_user_id_index" on "legal_assent" ("user_id");`);

    this.addSql(`create table "billing_processed_event" ("id" text not null, "type" text not null, "processed_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "billing_subscription" ("id" text not null, "user_id" uuid not null, "stripe_customer_id" text not null, "plan" text not null, "interval" text not null, "status" text not null, "quantity" int not null, "current_period_start" timestamptz not null, "current_period_end" timestamptz not null, "cancel_at_period_end" boolean not null default false, "workspace_id" uuid null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "billing_subscription_user_id_index" on "billing_subscription" ("user_id");`);

    this.addSql(`create table "workspace" ("id" uuid not null, "owner_user_id" uuid not null, "name" text not null, "kind" text not null default 'team', "seat_limit" int not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "workspace" add constraint "workspace_owner_user_id_unique" unique ("owner_user_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "billing_account" cascade;`);
    this.addSql(`drop table if exists "billing_checkout_session" cascade;`);
    this.addSql(`drop table if exists "credit_ledger" cascade;`);
    this.addSql(`drop table if exists "legal_assent" cascade;`);
    this.addSql(`drop table if exists "billing_processed_event" cascade;`);
    this.addSql(`drop table if exists "billing_subscription" cascade;`);
    this.addSql(`drop table if exists "workspace" cascade;`);
  }

}
