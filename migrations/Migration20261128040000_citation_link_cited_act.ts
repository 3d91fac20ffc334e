/**
 * The cited document's act on each citation link (issue 37): the act itself for a link to an act,
 * the article's act for a link to an article or to a paragraph nested in one, the cited document
 * for any other link. An act's roll-up (`include_articles`) is then one lookup of
 * `citation_link_cited_act_id_index` rather than a list of every article of the act. Existing rows
 * are backfilled with their cited id (right for links to acts and decisions); the citation graph
 * phase rebuilds every row with the articles' acts at the next start (the graph's version changed:
 * src/modules/legal-data/ingest/citation-graph-phase.ts, GRAPH_VERSION).
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration20261128040000_citation_link_cited_act extends Migration {

  override name = 'Migration20261128040000_citation_link_cited_act';

  override up(): void | Promise<void> {
    this.addSql(`alter table "citation_link" add column "cited_act_id" text null;`);
    this.addSql(`update "citation_link" set "cited_act_id" = "cited_id";`);
    this.addSql(`alter table "citation_link" alter column "cited_act_id" set not null;`);
    this.addSql(`create index "citation_link_cited_act_id_index" on "citation_link" ("cited_act_id", "citing_id", "seq");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "citation_link_cited_act_id_index";`);
    this.addSql(`alter table "citation_link" drop column if exists "cited_act_id";`);
  }

}
