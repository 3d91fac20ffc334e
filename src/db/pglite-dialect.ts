/**
 * A Kysely dialect over one PGlite (PostgreSQL in WASM) instance, used by MikroORM 7 as its
 * `driverOptions` when no DATABASE_URL is configured.
 *
 * PGlite has exactly one session, so the driver hands out its single connection to one
 * holder at a time (a FIFO mutex taken in `acquireConnection`, released in
 * `releaseConnection`). Kysely keeps the connection for the whole life of a transaction,
 * so BEGIN … COMMIT can never interleave with statements of another caller.
 * Consequence (the same as any single-connection pool): code that awaits a query on a
 * *different* EntityManager/connection while holding a transaction open deadlocks.
 *
 * Statements without parameters go through `exec` (simple query protocol), which accepts
 * several statements in one string (MikroORM's schema and migration SQL does that);
 * parameterised statements go through `query` (extended protocol, one statement).
 *
 * Result values are parsed like MikroORM's own `pg` setup, so both backends hand the ORM the
 * same shapes: date/timestamp/interval stay raw strings (MikroORM converts them), and int8
 * stays a string as node-postgres returns it.
 */
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PGliteAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type AbortableOperationOptions,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

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

/** Minimal FIFO mutex: `lock()` resolves with the matching release function. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();

  lock(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => released);
    return acquired;
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> {
    options?.signal?.throwIfAborted();
    const queryOptions: QueryOptions = { rowMode: 'object', parsers: PGLITE_PARSERS };
    const results: Results[] =
      compiledQuery.parameters.length === 0
        ? await this.pglite.exec(compiledQuery.sql, queryOptions)
        : [await this.pglite.query(compiledQuery.sql, [...compiledQuery.parameters], queryOptions)];
    return toQueryResult<R>(results);
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize = 100,
    options?: AbortableOperationOptions,
  ): AsyncIterableIterator<QueryResult<R>> {
    // PGlite has no server-side cursor API; materialise and hand out chunks.
    const { rows } = await this.executeQuery<R>(compiledQuery, options);
    const size = Math.max(1, chunkSize);
    for (let i = 0; i < rows.length; i += size) {
      options?.signal?.throwIfAborted();
      yield { rows: rows.slice(i, i + size) };
    }
  }
}

/** Folds PGlite's per-statement results into Kysely's shape (rows of the last statement that returned any). */
function toQueryResult<R>(results: Results[]): QueryResult<R> {
  let affected: bigint | undefined;
  let rows: R[] = [];
  for (const result of results) {
    if (result.fields.length > 0 || result.rows.length > 0) rows = result.rows as R[];
    if (result.command && AFFECTING_COMMANDS.has(result.command.toUpperCase())) {
      affected = (affected ?? 0n) + BigInt(result.rowCount ?? 0);
    }
  }
  return { rows, numAffectedRows: affected };
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class PGliteDriver implements Driver {
  readonly #options: PGliteDialectOptions;
  readonly #mutex = new Mutex();
  readonly #releases = new WeakMap<DatabaseConnection, () => void>();
  #pglite: PGlite | undefined;
  #connection: PGliteConnection | undefined;

  constructor(options: PGliteDialectOptions) {
    this.#options = options;
  }

  async init(): Promise<void> {
    const source = this.#options.pglite;
    const pglite = typeof source === 'function' ? await source() : source;
    if (pglite.closed) throw new Error('The PGlite instance is already closed');
    await pglite.waitReady;
    this.#pglite = pglite;
    this.#connection = new PGliteConnection(pglite);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    const connection = this.#connection;
    if (!connection) {
      release();
      throw new Error('The PGlite driver is not initialised or was destroyed');
    }
    this.#releases.set(connection, release);
    return connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.#releases.get(connection);
    this.#releases.delete(connection);
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let sql = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      sql = 'start transaction';
      if (settings.isolationLevel) sql += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) sql += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(sql));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdent(savepointName)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${quoteIdent(savepointName)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, savepointName: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${quoteIdent(savepointName)}`));
  }

  async destroy(): Promise<void> {
    const pglite = this.#pglite;
    this.#pglite = undefined;
    if (!pglite) return;
    // Wait for the current holder (if any) to finish before tearing down.
    const release = await this.#mutex.lock();
    try {
      this.#connection = undefined;
      const closeOnDestroy = this.#options.closeOnDestroy ?? typeof this.#options.pglite === 'function';
      if (closeOnDestroy && !pglite.closed) await pglite.close();
    } finally {
      release();
    }
  }
}

/** Kysely dialect for PGlite; pass it to MikroORM as `driverOptions` with the PostgreSqlDriver. */
export class PGliteDialect implements Dialect {
  readonly #options: PGliteDialectOptions;

  constructor(options: PGliteDialectOptions) {
    this.#options = options;
  }

  createDriver(): Driver {
    return new PGliteDriver(this.#options);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new PGliteAdapter();
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
