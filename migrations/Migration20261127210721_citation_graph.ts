/**
 * The citation graph (issue 37): citing documents with their checkpoint, their links to the cited
 * documents (looked up by cited document: `citation_link_cited_id_index`), and their unresolved
 * citations (src/modules/legal-data/citator/citation-graph.entities.ts).
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261127210721_citation_graph extends Migration {

  override name = 'Migration20261127210721_citation_graph';

  override up(): void | Promise<void> {
    this.addSql(`create table "citation_link" ("citing_id" text not null, "seq" int not null, "cited_id" text not null, "cited_source" text not null, "cited_source_id" text not null, "start" int not null, "end" int not null, "pinpoint" text not null, "citation" text not null, "carried" boolean not null, "snippet" text not null, "highlight_start" int not null, "highlight_end" int not null, primary key ("citing_id", "seq"));`);
    this.addSql(`create index "citation_link_cited_id_index" on "citation_link" ("cited_id", "citing_id");`);

    this.addSql(`create table "citing_document" ("id" text not null, "source" text not null, "source_id" text not null, "namespace" text not null, "country" text not null, "language" text null, "court" text null, "court_tier" int null, "date" text null, "title" text not null, "checksum" text not null, primary key ("id"));`);

    this.addSql(`create table "unresolved_citation" ("citing_id" text not null, "seq" int not null, "start" int not null, "end" int not null, "citation" text not null, "reason" text not null, primary key ("citing_id", "seq"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "citation_link" cascade;`);
    this.addSql(`drop table if exists "citing_document" cascade;`);
    this.addSql(`drop table if exists "unresolved_citation" cascade;`);
  }

}
