/**
 * PGlite (PostgreSQL in WASM) for MikroORM 7: Kysely's own `PGliteDialect` (driver, adapter,
 * compiler, introspector; transactions through PGlite's exclusive `transaction()`; one holder
 * of the single connection at a time, since its adapter says it has no second connection),
 * passed as `driverOptions` when no DATABASE_URL is configured. What it lacks is added by the
 * PGlite handed to it (`forKysely`):
 *
 * - **Several statements in one string.** Kysely sends everything through `query` (extended
 *   protocol, one statement); MikroORM's schema and migration SQL sends several at once.
 *   Statements without parameters go through `exec` (simple protocol), inside a transaction too.
 * - **The ORM's value shapes.** Results are parsed like MikroORM's own `pg` setup, so both
 *   backends hand the ORM the same shapes: date/timestamp/interval stay raw strings (MikroORM
 *   converts them), and int8 stays a string as node-postgres returns it; the affected-row count
 *   is set for writes only, as node-postgres does.
 * - **Who closes the instance.** Kysely closes it on destroy; we close only what the dialect
 *   created (a factory), not an instance the caller passed and still owns.
 *
 * As with any single-connection pool, code that awaits a query on a *different* EntityManager
 * while holding a transaction open deadlocks.
 */
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { PGliteDialect as KyselyPGliteDialect, type PGliteDialectConfig } from 'kysely';

export interface PGliteDialectOptions {
  /**
   * The PGlite instance, or a factory called once per driver initialisation (MikroORM builds
   * a new Kysely driver on every connect/reconnect).
   */
  pglite: PGlite | (() => PGlite | Promise<PGlite>);
  /**
   * Close the PGlite instance when the driver is destroyed (`orm.close()`).
   * Defaults to true for a factory (the dialect owns what it created) and false for an instance.
   */
  closeOnDestroy?: boolean;
}

/** Text-array literal parser (`{a,"b c",NULL}`), enough for the date/time arrays we keep raw. */
export function parsePgArray(text: string): (string | null | unknown[])[] {
  let i = 0;
  const parseLevel = (): (string | null | unknown[])[] => {
    const out: (string | null | unknown[])[] = [];
    i++; // skip '{'
    let token = '';
    let quoted = false;
    let had = false;
    const push = () => {
      if (had) out.push(!quoted && token === 'NULL' ? null : token);
      token = '';
      quoted = false;
      had = false;
    };
    while (i < text.length) {
      const ch = text[i];
      if (ch === '{') {
        out.push(parseLevel());
        continue;
      }
      if (ch === '}') {
        push();
        i++;
        return out;
      }
      if (ch === ',') {
        push();
        i++;
        continue;
      }
      if (ch === '"') {
        quoted = true;
        had = true;
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === '\\') i++;
          token += text[i];
          i++;
        }
        i++; // closing quote
        continue;
      }
      token += ch;
      had = true;
      i++;
    }
    push();
    return out;
  };
  // Arrays may carry explicit bounds, e.g. `[0:1]={...}`.
  const start = text.indexOf('{');
  if (start < 0) return [];
  i = start;
  return parseLevel();
}

const keepRaw = (value: string) => value;
const keepRawArray = (value: string) => parsePgArray(value);

/**
 * Parsers applied to every query: MikroORM's PostgreSQL type overrides (date 1082, timestamp 1114,
 * timestamptz 1184, interval 1186 and their arrays kept as strings) plus node-postgres' int8 (20, 1016).
 */
export const PGLITE_PARSERS: NonNullable<QueryOptions['parsers']> = {
  20: keepRaw,
  1016: keepRawArray,
  1082: keepRaw,
  1114: keepRaw,
  1184: keepRaw,
  1186: keepRaw,
  1182: keepRawArray,
  1115: keepRawArray,
  1185: keepRawArray,
  1187: keepRawArray,
};

const AFFECTING_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COPY']);

type Queryable = Pick<Transaction, 'query' | 'exec'>;
type KyselyPGlite = Exclude<PGliteDialectConfig['pglite'], (...args: never[]) => unknown>;

/** Folds PGlite's per-statement results into one (rows of the last statement that returned any). */
function folded(results: Results[]): Results {
  let affectedRows: number | undefined;
  let last: Results = { rows: [], fields: [] };
  for (const result of results) {
    if (result.fields.length > 0 || result.rows.length > 0) last = result;
    if (result.command && AFFECTING_COMMANDS.has(result.command.toUpperCase())) affectedRows = (affectedRows ?? 0) + (result.rowCount ?? 0);
  }
  return { rows: last.rows, fields: last.fields, affectedRows };
}

/** `query` as Kysely calls it, with our parsers, and parameterless SQL (maybe several statements) through `exec`. */
function query(target: Queryable) {
  return async <T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> => {
    const withParsers: QueryOptions = { ...options, parsers: PGLITE_PARSERS };
    const results = params.length === 0 ? await target.exec(sql, withParsers) : [await target.query<Record<string, unknown>>(sql, params, withParsers)];
    return folded(results) as Results<T>;
  };
}

/** The PGlite Kysely's driver talks to: the instance, with `query` (also in transactions) as above. */
function forKysely(pglite: PGlite, closeOnDestroy: boolean): KyselyPGlite {
  return {
    get closed() {
      return pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    waitReady: pglite.waitReady,
    query: query(pglite),
    transaction: (callback) => pglite.transaction((tx) => callback({ query: query(tx), rollback: () => tx.rollback() })),
    close: async () => {
      if (closeOnDestroy) await pglite.close();
    },
  };
}

/** Kysely's PGlite dialect over `forKysely`; pass it to MikroORM as `driverOptions` with the PostgreSqlDriver. */
export class PGliteDialect extends KyselyPGliteDialect {
  constructor(options: PGliteDialectOptions) {
    const source = options.pglite;
    const closeOnDestroy = options.closeOnDestroy ?? typeof source === 'function';
    super({
      pglite: async () => {
        const pglite = typeof source === 'function' ? await source() : source;
        if (pglite.closed) throw new Error('The PGlite instance is already closed');
        return forKysely(pglite, closeOnDestroy);
      },
    });
  }
}
