import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { QueryResult } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import { migrationsList } from '../../migrations/index.js';
import { IndexStateEntity } from '../modules/legal-data/index-state.entity.js';
import { getIndexState, setIndexState } from '../modules/legal-data/catalog.store.js';
import { closeOrm, createOrm, migrateUp, ormBackend } from './orm.js';
import { parsePgArray } from './pglite-dialect.js';
import { openTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../test/helpers/test-databases.js';

const MIGRATION_NAMES = migrationsList.map((m) => m.name);

describe.each(TEST_BACKENDS)('relational store on %s', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(backend);
  });
  afterAll(async () => {
    await db?.dispose();
  });

  it('runs on the expected backend', () => {
    expect(ormBackend(db.orm)).toBe(backend);
  });

  it('applies every migration to an empty database, then nothing on a second run', async () => {
    expect(await db.orm.migrator.getExecuted()).toEqual([]);
    expect(await migrateUp(db.orm)).toEqual(MIGRATION_NAMES);
    expect(await migrateUp(db.orm)).toEqual([]);
    expect((await db.orm.migrator.getExecuted()).map((m) => m.name)).toEqual(MIGRATION_NAMES);
    const tables = await db.orm.em
      .getConnection()
      .execute<{ table_name: string }[]>(
        `select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
    expect(tables.map((t) => t.table_name)).toEqual([
      'admin_audit_log',
      'analytics_account_day',
      'analytics_document',
      'analytics_partner',
      'analytics_written_batch',
      'api_key',
      'app_user',
      'billing_account',
      'billing_checkout_session',
      'billing_processed_event',
      'billing_subscription',
      'citation_link',
      'citing_document',
      'credit_ledger',
      'ended_session',
      'feedback_report',
      'identity_link',
      'index_state',
      'ingest_file',
      'legal_assent',
      'mikro_orm_migrations',
      'oauth_model',
      'oauth_signing_key',
      'password_reset',
      'pending_stripe_cancellation',
      'plan_override',
      'source',
      'unresolved_citation',
      'usage_daily_endpoint',
      'usage_event',
      'usage_user_day',
      'usage_user_endpoint',
      'usage_user_summary',
      'user_deletion_log',
      'workspace',
      'workspace_domain',
      'workspace_invite',
      'workspace_member',
    ]);
  });

  // A PGlite setting: reported as skipped on PostgreSQL rather than passing without a check.
  (backend === 'pglite' ? it : it.skip)('runs PGlite with a small shared buffer pool (resident for the whole process otherwise)', async () => {
    const [row] = await db.orm.em.getConnection().execute<{ shared_buffers: string }[]>('show shared_buffers');
    expect(row.shared_buffers).toBe('16MB');
  });

  it('agrees with the entity metadata after migrating (no schema difference)', async () => {
    const diff = await db.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('returns rows and affected-row counts, also for several statements in one string', async () => {
    const connection = db.orm.em.getConnection();
    await connection.execute('create table t_multi (id int primary key); insert into t_multi values (1), (2), (3)', [], 'run');
    const updated = await connection.execute<QueryResult>('update t_multi set id = id + 10 where id > ?', [1], 'run');
    expect(updated.affectedRows).toBe(2);
    const rows = await connection.execute<{ id: number }[]>('select id from t_multi order by id');
    expect(rows.map((r) => r.id)).toEqual([1, 12, 13]);
    await connection.execute('drop table t_multi', [], 'run');
  });

  it('hands MikroORM the same value shapes as node-postgres', async () => {
    const [row] = await db.orm.em
      .getConnection()
      .execute(
        `select 42::int8 as big, 1.5::numeric as num, true as flag, '{"a":[1]}'::jsonb as doc, array['x', 'y z']::text[] as tags, ` +
          `'2024-05-06T07:08:09Z'::timestamptz as tstz, timestamp '2024-05-06 07:08:09' as ts, array['2024-05-06'::date] as dates`,
      );
    // timestamptz is rendered in the session time zone; only its type and instant are portable
    expect(typeof row.tstz).toBe('string');
    expect(new Date(row.tstz).toISOString()).toBe('2024-05-06T07:08:09.000Z');
    delete row.tstz;
    expect(row).toEqual({
      big: '42',
      num: '1.5',
      flag: true,
      doc: { a: [1] },
      tags: ['x', 'y z'],
      ts: '2024-05-06 07:08:09',
      dates: ['2024-05-06'],
    });
  });

  it('binds parameters of Kysely queries', async () => {
    const kysely = db.orm.em.fork().getKysely();
    const result = await kysely.executeQuery<{ n: number; s: string }>(
      CompiledQuery.raw('select $1::int + 1 as n, $2::text as s', [41, "it's"]),
    );
    expect(result.rows).toEqual([{ n: 42, s: "it's" }]);
  });

  it('commits and rolls back transactions, with savepoints for nested ones', async () => {
    const em = db.orm.em.fork();
    await expect(
      em.transactional(async (tx) => {
        tx.create(IndexStateEntity, { key: 'tx-rolled-back', value: 1, updated_at: new Date() });
        await tx.flush();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await getIndexState(db.orm.em.fork(), 'tx-rolled-back')).toBeNull();

    await em.transactional(async (outer) => {
      outer.create(IndexStateEntity, { key: 'tx-outer', value: 'kept', updated_at: new Date() });
      await outer.flush();
      await expect(
        outer.transactional(async (inner) => {
          inner.create(IndexStateEntity, { key: 'tx-inner', value: 'dropped', updated_at: new Date() });
          await inner.flush();
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
    });
    expect(await getIndexState(db.orm.em.fork(), 'tx-outer')).toBe('kept');
    expect(await getIndexState(db.orm.em.fork(), 'tx-inner')).toBeNull();
  });

  it('runs concurrent transactions without interleaving them', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => `concurrent-${i}`);
    await Promise.all(keys.map((key, i) => setIndexState(db.orm.em.fork(), key, { i })));
    for (const [i, key] of keys.entries()) {
      expect(await getIndexState(db.orm.em.fork(), key)).toEqual({ i });
    }
  });

  it("keeps another caller's statement out of an open transaction (not rolled back with it)", async () => {
    let outside: Promise<unknown> | undefined;
    const rolledBack = db.orm.em.fork().transactional(async (em) => {
      await setIndexState(em, 'inside-rolled-back', { inside: true });
      // Not awaited: on PGlite's single connection it waits until the transaction ends.
      outside = db.orm.em
        .fork()
        .getConnection()
        .execute(`insert into index_state (key, value, updated_at) values (?, ?, now())`, ['outside-kept', JSON.stringify({ outside: true })]);
      await new Promise((resolve) => setTimeout(resolve, 50)); // room for it to slip into the transaction
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    await outside;
    expect(await getIndexState(db.orm.em.fork(), 'inside-rolled-back')).toBeNull();
    expect(await getIndexState(db.orm.em.fork(), 'outside-kept')).toEqual({ outside: true });
  });
});

describe('PGlite on disk', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lsp-pglite-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps its data across close and reopen, under ${dataDir}/pglite by default', async () => {
    const config = { databaseUrl: undefined, dataDir: dir };
    const first = await createOrm(config);
    try {
      expect(await migrateUp(first)).toEqual(MIGRATION_NAMES);
      await setIndexState(first.em.fork(), 'corpus_fingerprint', { sha256: 'abc', files: 3 });
    } finally {
      await closeOrm(first);
    }

    const second = await createOrm(config);
    try {
      expect(await migrateUp(second)).toEqual([]);
      expect(await getIndexState(second.em.fork(), 'corpus_fingerprint')).toEqual({ sha256: 'abc', files: 3 });
    } finally {
      await closeOrm(second);
    }
  });
});

describe('parsePgArray', () => {
  it('parses PostgreSQL array literals', () => {
    expect(parsePgArray('{}')).toEqual([]);
    expect(parsePgArray('{a,"b c",NULL,"NULL"}')).toEqual(['a', 'b c', null, 'NULL']);
    expect(parsePgArray('{"2024-01-01 00:00:00+00","x\\"y"}')).toEqual(['2024-01-01 00:00:00+00', 'x"y']);
    expect(parsePgArray('{{1,2},{3,4}}')).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(parsePgArray('[0:1]={a,b}')).toEqual(['a', 'b']);
  });
});
