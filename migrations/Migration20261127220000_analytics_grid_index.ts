/**
 * Partner analytics' grid (issue #35 item 4): hits, documents and resolutions are summed from
 * `grid` cells (source, country, detail, day), whose detail comes before the day in the primary
 * key; a source's cells over a range are read through (kind, scope, day).
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127220000_analytics_grid_index extends Migration {

  override name = 'Migration20261127220000_analytics_grid_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "analytics_account_day_kind_scope_day_index" on "analytics_account_day" ("kind", "scope", "day");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "analytics_account_day_kind_scope_day_index";`);
  }

}
