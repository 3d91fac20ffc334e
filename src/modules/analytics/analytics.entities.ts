/**
 * Partner analytics' tables (issue #35). Usage is kept per UTC day and per account, never the
 * query text nor a document's text: `analytics_account_day` holds one row per (dimension, day,
 * account) with what that account did there, so the distinct accounts of any period are exact
 * (count distinct over its days) and each day cell can be suppressed on its own before it is
 * rolled up (analytics-privacy.ts). Every released hit, document and resolution figure is a sum
 * of released `grid` cells only, so no two answers differ by a withheld cell; `source` and
 * `country` cells give the searches and the distinct accounts. A dimension is `kind` + `scope` + `item`:
 *
 * | kind       | scope                  | item           | counted in                       |
 * |------------|------------------------|----------------|----------------------------------|
 * | `source`   | source (`DE/Gesetze…`) | ''             | searches, hits, documents, resolutions |
 * | `country`  | country code           | ''             | searches (filtered by it), hits, documents, resolutions |
 * | `grid`     | source ('' = none)     | `<country>\|` hits, `<country>\|doc:<source id>`, `<country>\|match:<type>` | hits, documents, resolutions |
 * | `namespace`| namespace filter       | ''             | searches                         |
 * | `tool`     | ''                     | MCP tool name  | calls                            |
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const AnalyticsAccountDayEntity = defineEntity({
  name: 'AnalyticsAccountDay',
  tableName: 'analytics_account_day',
  // grid cells of a source over a range: its items (detail) come before the day in the primary key
  // and a country's grid cells over a range (the country is the item's first part)
  indexes: [
    { name: 'analytics_account_day_kind_scope_day_index', properties: ['kind', 'scope', 'day'] },
    {
      name: 'analytics_account_day_grid_country_day_index',
      expression: `create index "analytics_account_day_grid_country_day_index" on "analytics_account_day" (split_part("item", '|', 1), "day") where "kind" = 'grid'`,
    },
  ],
  properties: {
    kind: p.text().primary(),
    scope: p.text().primary(),
    item: p.text().primary(),
    day: p.date().primary(),
    /** The account's user id; every anonymous caller counts as the one account `anonymous`. */
    account: p.text().primary(),
    searches: p.integer(),
    hits: p.integer(),
    documents: p.integer(),
    resolutions: p.integer(),
    calls: p.integer(),
  },
});
export type AnalyticsAccountDay = InferEntity<typeof AnalyticsAccountDayEntity>;

/** What topDocuments shows of a fetched document besides its id (never its text). */
export const AnalyticsDocumentEntity = defineEntity({
  name: 'AnalyticsDocument',
  tableName: 'analytics_document',
  properties: {
    source: p.text().primary(),
    source_id: p.text().primary(),
    namespace: p.text(),
    country: p.text(),
  },
});
export type AnalyticsDocument = InferEntity<typeof AnalyticsDocumentEntity>;

/**
 * Batches already added to the aggregates: the additive upserts are not idempotent by themselves,
 * so a batch written twice (a retry after an unknown outcome, a replayed spill file) is skipped
 * by its key (a hash of its event ids). Keys older than a week are pruned.
 */
export const AnalyticsWrittenBatchEntity = defineEntity({
  name: 'AnalyticsWrittenBatch',
  tableName: 'analytics_written_batch',
  properties: {
    batch_key: p.text().primary(),
    written_at: p.datetime().index('analytics_written_batch_written_at_index'),
  },
});

/** A partner account and its scope: the sources and countries whose analytics it may read. */
export const AnalyticsPartnerEntity = defineEntity({
  name: 'AnalyticsPartner',
  tableName: 'analytics_partner',
  properties: {
    user_id: p.uuid().primary(),
    sources: p.json<string[]>(),
    countries: p.json<string[]>(),
    set_by_user_id: p.uuid().nullable(),
    updated_at: p.datetime(),
  },
});
export type AnalyticsPartner = InferEntity<typeof AnalyticsPartnerEntity>;
