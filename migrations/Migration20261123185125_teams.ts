/** Team workspaces: members with roles, e-mail invites (hashed tokens), the join link, allowed domains; usage rows remember the workspace they counted in. */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261123185125_teams extends Migration {

  override name = 'Migration20261123185125_teams';

  override up(): void | Promise<void> {
    this.addSql(`create table "workspace_domain" ("workspace_id" uuid not null, "domain" text not null, primary key ("workspace_id", "domain"));`);
    this.addSql(`create index "workspace_domain_domain_index" on "workspace_domain" ("domain");`);

    this.addSql(`create table "workspace_invite" ("id" uuid not null, "workspace_id" uuid not null, "email" text not null, "email_lower" text not null, "token_hash" text not null, "invited_by" uuid not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "accepted_by" uuid null, primary key ("id"));`);
    this.addSql(`create index "workspace_invite_workspace_id_index" on "workspace_invite" ("workspace_id");`);
    this.addSql(`alter table "workspace_invite" add constraint "workspace_invite_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "workspace_member" ("user_id" uuid not null, "workspace_id" uuid not null, "role" text not null, "joined_at" timestamptz not null, primary key ("user_id"));`);
    this.addSql(`create index "workspace_member_workspace_id_index" on "workspace_member" ("workspace_id");`);

    this.addSql(`alter table "usage_event" add "workspace_id" uuid null;`);
    this.addSql(`create index "usage_event_workspace_id_created_at_index" on "usage_event" ("workspace_id", "created_at");`);

    this.addSql(`alter table "workspace" add "join_token" text null, add "join_token_created_at" timestamptz null;`);
    this.addSql(`alter table "workspace" add constraint "workspace_join_token_unique" unique ("join_token");`);

    // workspaces billing created before this migration: their owners become their first members
    this.addSql(`insert into "workspace_member" ("user_id", "workspace_id", "role", "joined_at") select "owner_user_id", "id", 'owner', "created_at" from "workspace" on conflict do nothing;`);
    // and their usage since then counts in the workspace's pool, as it did in their own allowance
    this.addSql(`update "usage_event" e set "workspace_id" = w."id" from "workspace" w where e."user_id" = w."owner_user_id" and e."workspace_id" is null and e."created_at" >= w."created_at";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "workspace_domain" cascade;`);
    this.addSql(`drop table if exists "workspace_invite" cascade;`);
    this.addSql(`drop table if exists "workspace_member" cascade;`);

    this.addSql(`drop index "usage_event_workspace_id_created_at_index";`);
    this.addSql(`alter table "usage_event" drop column "workspace_id";`);

    this.addSql(`alter table "workspace" drop constraint "workspace_join_token_unique";`);
    this.addSql(`alter table "workspace" drop column "join_token", drop column "join_token_created_at";`);
  }

}
