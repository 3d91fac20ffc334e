/**
 * Usage rows carry the id the recorder gave them when the request was counted, so a batch written
 * again (a retry after an unknown outcome, a spill file replayed after a crash between the insert
 * and deleting the file) inserts nothing twice: `on conflict (event_id) do nothing`
 * (src/modules/usage/usage-recorder.ts). Null for the rows written before.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127140000_usage_event_id extends Migration {

  override name = 'Migration20261127140000_usage_event_id';

  override up(): void | Promise<void> {
    this.addSql(`alter table "usage_event" add "event_id" uuid null;`);
    this.addSql(`alter table "usage_event" add constraint "usage_event_event_id_unique" unique ("event_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "usage_event" drop constraint "usage_event_event_id_unique";`);
    this.addSql(`alter table "usage_event" drop column "event_id";`);
  }

}
