/**
 * The sources catalogue (`sources.jsonl.gz` in the corpus, see shared/corpus/FORMAT.md):
 * one row per `<country>/<source_name>`. Property names follow the catalogue's own
 * snake_case fields, which are also the column names.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const SourceEntity = defineEntity({
  name: 'Source',
  tableName: 'source',
  properties: {
    source: p.text().primary(),
    country: p.text().index('source_country_index'),
    name: p.text(),
    data_types: p.array().columnType('text[]'),
    url: p.text().nullable(),
    license_id: p.text().nullable(),
    license_name: p.text().nullable(),
    license_url: p.text().nullable(),
    commercial_use: p.boolean().nullable(),
    status: p.text().nullable(),
    blocked_reason: p.text().nullable(),
    court_name: p.text().nullable(),
    tier: p.integer().nullable(),
    notes: p.text().nullable(),
    updated_at: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export type Source = InferEntity<typeof SourceEntity>;
