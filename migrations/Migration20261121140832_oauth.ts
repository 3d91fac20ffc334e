/** The OAuth 2.1 authorization server: oidc-provider models (clients, grants, codes, tokens, sessions) and the access-token signing key. */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261121140832_oauth extends Migration {

  override name = 'Migration20261121140832_oauth';

  override up(): void | Promise<void> {
    this.addSql(`create table "oauth_model" ("model" text not null, "id" text not null, "payload" jsonb not null, "grant_id" text null, "user_code" text null, "uid" text null, "expires_at" timestamptz null, "consumed_at" timestamptz null, primary key ("model", "id"));`);
    this.addSql(`create index "oauth_model_grant_id_index" on "oauth_model" ("grant_id");`);
    this.addSql(`create index "oauth_model_model_uid_index" on "oauth_model" ("model", "uid");`);
    this.addSql(`create index "oauth_model_model_user_code_index" on "oauth_model" ("model", "user_code");`);
    this.addSql(`create index "oauth_model_expires_at_index" on "oauth_model" ("expires_at");`);

    this.addSql(`create table "oauth_signing_key" ("kid" text not null, "alg" text not null, "private_jwk" jsonb not null, "created_at" timestamptz not null, primary key ("kid"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "oauth_model" cascade;`);
    this.addSql(`drop table if exists "oauth_signing_key" cascade;`);
  }

}
