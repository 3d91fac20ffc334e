/**
 * Team allowed domains need a DNS proof (issue #31): each claim gets a state, its random token
 * and its check times. Claims made before this migration were never proven: they become pending
 * (auto-joining nobody) with a fresh token, and the first re-check sweep looks at them at once.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127100529_team_domain_proofs extends Migration {

  override name = 'Migration20261127100529_team_domain_proofs';

  override up(): void | Promise<void> {
    this.addSql(`alter table "workspace_domain" add "status" text not null default 'pending', add "token" text null, add "created_at" timestamptz null, add "verified_at" timestamptz null, add "last_seen_at" timestamptz null, add "checked_at" timestamptz null, add "check_error" text null, add "next_check_at" timestamptz null;`);
    // gen_random_uuid() draws from the server's strong random source: 122 random bits per token
    this.addSql(`update "workspace_domain" set "token" = replace(gen_random_uuid()::text, '-', ''), "created_at" = now(), "next_check_at" = now();`);
    this.addSql(`alter table "workspace_domain" alter column "token" set not null, alter column "created_at" set not null, alter column "next_check_at" set not null;`);
    this.addSql(`create index "workspace_domain_next_check_at_index" on "workspace_domain" ("next_check_at");`);
    this.addSql(`create unique index "workspace_domain_verified_unique" on "workspace_domain" ("domain") where status = 'verified';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "workspace_domain_next_check_at_index";`);
    this.addSql(`drop index "workspace_domain_verified_unique";`);
    this.addSql(`alter table "workspace_domain" drop column "status", drop column "token", drop column "created_at", drop column "verified_at", drop column "last_seen_at", drop column "checked_at", drop column "check_error", drop column "next_check_at";`);
  }

}
