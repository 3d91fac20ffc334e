/** Accounts: users, identity-provider links, API keys, password reset tokens and usage rows. */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261121122629_accounts extends Migration {

  override name = 'Migration20261121122629_accounts';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_key" ("id" uuid not null, "user_id" uuid not null, "name" text not null, "key_hash" text not null, "key_prefix" text not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "api_key_user_id_index" on "api_key" ("user_id");`);
    this.addSql(`alter table "api_key" add constraint "api_key_key_hash_unique" unique ("key_hash");`);

    this.addSql(`create table "identity_link" ("id" uuid not null, "user_id" uuid not null, "provider" text not null, "subject" text not null, "email" text not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "identity_link_user_id_index" on "identity_link" ("user_id");`);
    this.addSql(`alter table "identity_link" add constraint "identity_link_provider_subject_unique" unique ("provider", "subject");`);

    this.addSql(`create table "password_reset" ("id" uuid not null, "user_id" uuid not null, "token_hash" text not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "password_reset_user_id_index" on "password_reset" ("user_id");`);
    this.addSql(`alter table "password_reset" add constraint "password_reset_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "usage_event" ("id" bigserial primary key, "user_id" uuid null, "api_key_id" uuid null, "client_ip" text null, "endpoint" text not null, "status" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "usage_event_user_id_created_at_index" on "usage_event" ("user_id", "created_at");`);

    this.addSql(`create table "app_user" ("id" uuid not null, "email" text not null, "email_lower" text not null, "email_verified" boolean not null default false, "name" text null, "password_hash" text null, "plan" text not null default 'free', "terms_version" text null, "legal_accepted_at" timestamptz null, "legal_accepted_ip" text null, "sessions_valid_after" timestamptz null, "billing_period_start" timestamptz null, "billing_period_end" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "app_user" add constraint "app_user_email_lower_unique" unique ("email_lower");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_key" cascade;`);
    this.addSql(`drop table if exists "identity_link" cascade;`);
    this.addSql(`drop table if exists "password_reset" cascade;`);
    this.addSql(`drop table if exists "usage_event" cascade;`);
    this.addSql(`drop table if exists "app_user" cascade;`);
  }

}
