/** Initial schema: the sources catalogue, ingest checkpoints and the index key/value state. */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261121115223_initial extends Migration {

  override name = 'Migration20261121115223_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "index_state" ("key" text not null, "value" jsonb not null, "updated_at" timestamptz not null, primary key ("key"));`);

    this.addSql(`create table "ingest_file" ("path" text not null, "sha256" text not null, "size" bigint not null, "status" text not null, "lines_done" int not null, "documents_indexed" int not null, "bad_lines" int not null, "updated_at" timestamptz not null, primary key ("path"));`);

    this.addSql(`create table "source" ("source" text not null, "country" text not null, "name" text not null, "data_types" text[] not null, "url" text null, "license_id" text null, "license_name" text null, "license_url" text null, "commercial_use" boolean null, "status" text null, "blocked_reason" text null, "court_name" text null, "tier" int null, "notes" text null, "updated_at" timestamptz not null, primary key ("source"));`);
    this.addSql(`create index "source_country_index" on "source" ("country");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "source" cascade;`);
    this.addSql(`drop table if exists "ingest_file" cascade;`);
    this.addSql(`drop table if exists "index_state" cascade;`);
  }

}
