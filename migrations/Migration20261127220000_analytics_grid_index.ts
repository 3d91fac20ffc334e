/**
 * Partner analytics' grid (issue #35 item 4): hits, documents and resolutions are summed from
 * `grid` cells (source, country, detail, day), whose detail comes before the day in the primary
 * key; a source's cells over a range are read through (kind, scope, day), a country's through
 * (country, day) of the grid cells.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127220000_analytics_grid_index extends Migration {

  override name = 'Migration20261127220000_analytics_grid_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "analytics_account_day_kind_scope_day_index" on "analytics_account_day" ("kind", "scope", "day");`);
    this.addSql(`create index "analytics_account_day_grid_country_day_index" on "analytics_account_day" (split_part("item", '|', 1), "day") where "kind" = 'grid';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "analytics_account_day_kind_scope_day_index";`);
    this.addSql(`drop index if exists "analytics_account_day_grid_country_day_index";`);
  }

}
