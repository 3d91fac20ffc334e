/** Sessions ended at logout: the SHA-256 of each ended session token until it expires (src/modules/accounts/ended-session.entity.ts). */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261123173835_ended_sessions extends Migration {

  override name = 'Migration20261123173835_ended_sessions';

  override up(): void | Promise<void> {
    this.addSql(`create table "ended_session" ("token_hash" text not null, "user_id" uuid not null, "ended_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("token_hash"));`);
    this.addSql(`create index "ended_session_user_id_index" on "ended_session" ("user_id");`);
    this.addSql(`create index "ended_session_expires_at_index" on "ended_session" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "ended_session" cascade;`);
  }

}
