/**
 * A cheap snapshot of what an account holds in the database, to check that a refused request
 * changed nothing: every row of every table that points at the account (`user_id`,
 * `owner_user_id`, the user row itself) or at its team workspace (`workspace_id`): keys, usage,
 * billing, credits, assents, team members, invites, domains. Found from the schema itself, so a
 * new table is in the snapshot without editing this file.
 */
import type { MikroORM } from '@mikro-orm/core';

/**
 * Columns that change when a credential is merely used, not by a request's effect (a key's
 * `last_used_at`). `usage*` tables are left out on request for billable operations: a call that
 * reached the service is counted, client errors included (src/modules/usage/usage.service.ts).
 */
const TOUCHED_BY_USE = new Set(['last_used_at', 'last_seen_at']);

export interface SnapshotSubject {
  userId: string;
  workspaceId?: string | null;
}

type Row = Record<string, unknown>;

/** Table -> column -> which subject id it holds (read once: the schema does not change under a test). */
const columnsOf = new WeakMap<MikroORM, Promise<{ table: string; column: string; of: 'user' | 'workspace' }[]>>();

function pointingColumns(orm: MikroORM): Promise<{ table: string; column: string; of: 'user' | 'workspace' }[]> {
  if (!columnsOf.has(orm)) {
    columnsOf.set(
      orm,
      (async () => {
        const rows = (await orm.em
          .fork()
          .getConnection()
          .execute(
            "select table_name, column_name from information_schema.columns where table_schema = current_schema() and column_name in ('user_id', 'owner_user_id', 'workspace_id') order by table_name, column_name",
          )) as { table_name: string; column_name: string }[];
        return [
          { table: 'app_user', column: 'id', of: 'user' as const },
          ...rows.map((r) => ({ table: r.table_name, column: r.column_name, of: r.column_name === 'workspace_id' ? ('workspace' as const) : ('user' as const) })),
        ];
      })(),
    );
  }
  return columnsOf.get(orm)!;
}

/** The rows of `subject`, as sorted JSON per table (one query); `withUsage: false` leaves the usage tables out. */
export async function snapshotOf(orm: MikroORM, subject: SnapshotSubject, options: { withUsage: boolean }): Promise<Record<string, string[]>> {
  const parts: string[] = [];
  const params: string[] = [];
  for (const { table, column, of } of await pointingColumns(orm)) {
    if (!options.withUsage && table.startsWith('usage')) continue;
    const id = of === 'user' ? subject.userId : subject.workspaceId;
    if (!id) continue;
    parts.push(`select '${table}.${column}' as part, row_to_json(t)::text as row from "${table}" t where "${column}"::text = ?`);
    params.push(id);
  }
  const rows = (await orm.em.fork().getConnection().execute(parts.join(' union all '), params)) as { part: string; row: string }[];
  const snapshot: Record<string, string[]> = {};
  for (const { part, row } of rows) {
    const kept = Object.fromEntries(Object.entries(JSON.parse(row) as Row).filter(([name]) => !TOUCHED_BY_USE.has(name)));
    (snapshot[part] ??= []).push(JSON.stringify(kept));
  }
  for (const list of Object.values(snapshot)) list.sort();
  return snapshot;
}
