/**
 * How many documents cite a document, per year of the citing document (the document page's
 * timeline, issue 37 item 5): one group-by over the cited document's links, with the cited-by
 * list's filters. Not billed: like `cited_by_count`, it is asked of a document already read.
 */
import type { EntityManager } from '@mikro-orm/core';
import { z } from 'zod';
import { parseInput } from '../../../validation.js';
import { filterSql, selectRows } from './citator.queries.js';
import { citedByQuerySchema } from './citator.schema.js';

/** The cited-by list's filters (no sort, no paging). */
export const citedByFiltersSchema = citedByQuerySchema.pick({ namespace: true, country: true, court: true, court_tier: true, date_start: true, date_end: true });

export const citedByYearSchema = z.object({
  /** Null: citing documents without a date. */
  year: z.number().int().nullable(),
  count: z.number().int(),
});
export type CitedByYear = z.output<typeof citedByYearSchema>;

/**
 * Citing documents of `citedId` per year (oldest first, undated last), each counted once
 * however often it cites. The corpus writes dates as ISO text (`2024-03-01`, `2024`), so the
 * year is the first four characters.
 */
export async function citedByPerYear(em: EntityManager, citedId: string, input: unknown): Promise<CitedByYear[]> {
  const filters = filterSql(parseInput(citedByFiltersSchema, input));
  const rows = await selectRows<{ year: string | null; n: string | number }>(
    em,
    `select substr(d.date, 1, 4) as year, count(*) as n
       from (select distinct citing_id from citation_link where cited_id = ?) f
       join citing_document d on d.id = f.citing_id
      where true${filters.sql}
      group by substr(d.date, 1, 4)
      order by substr(d.date, 1, 4) nulls last`,
    [citedId, ...filters.params],
  );
  // a date that does not start with a year counts as undated
  const undated = rows.filter((r) => r.year === null || !/^\d{4}$/.test(r.year)).reduce((sum, r) => sum + Number(r.n), 0);
  const dated = rows.filter((r) => r.year !== null && /^\d{4}$/.test(r.year)).map((r) => ({ year: Number(r.year), count: Number(r.n) }));
  return undated > 0 ? [...dated, { year: null, count: undated }] : dated;
}
