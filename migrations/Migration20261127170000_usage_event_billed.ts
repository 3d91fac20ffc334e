/**
 * Usage rows that are not billed: a document revalidation answered 304 and a HEAD on a document
 * are recorded under their own endpoint names (`documents.not_modified`, `documents.head`) so the
 * usage statistics show them, with `billed = false` so no plan count, limit or pool includes them
 * (src/modules/usage/usage-event.queries.ts). Every row written before was billed.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127170000_usage_event_billed extends Migration {

  override name = 'Migration20261127170000_usage_event_billed';

  override up(): void | Promise<void> {
    this.addSql(`alter table "usage_event" add "billed" boolean not null default true;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "usage_event" drop column "billed";`);
  }

}
