/**
 * Test helper: a throwaway database on each backend, so every database test runs against
 * both real PostgreSQL and PGlite (`describe.each(TEST_BACKENDS)`).
 *
 * PostgreSQL: a fresh, uniquely named database (`lsp_test_<random>`) created through the
 * admin URL (TEST_POSTGRES_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 * and dropped on dispose, so parallel runs never collide. PGlite: an in-memory instance
 * unless a directory is given. `openMigratedTestDatabase` gives one with every migration applied:
 * on PGlite a copy of the migrated template (test/helpers/pglite-template.ts) instead of
 * initdb + migrations.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import { closeOrm, createOrm, migrateUp, type Orm } from '../../src/db/orm.js';
import { copyPgliteTemplate } from './pglite-template.js';

export type TestBackend = 'postgresql' | 'pglite';
export const TEST_BACKENDS: TestBackend[] = ['postgresql', 'pglite'];

export const TEST_POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  backend: TestBackend;
  orm: Orm;
  /** Closes the ORM and, for PostgreSQL, drops the database. Safe to call twice. */
  dispose(): Promise<void>;
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (execute: (sql: string) => Promise<unknown>) => Promise<T>): Promise<T> {
  const admin = await createOrm({ databaseUrl: TEST_POSTGRES_ADMIN_URL, dataDir: '' });
  try {
    return await fn((sql) => admin.em.getConnection().execute(sql, [], 'run'));
  } finally {
    await closeOrm(admin);
  }
}

export async function openTestDatabase(backend: TestBackend, options: { pgliteDir?: string } = {}): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const orm = await createOrm({ databaseUrl: undefined, dataDir: '' }, { pgliteDir: options.pgliteDir ?? 'memory://' });
    let open = true;
    return {
      backend,
      orm,
      dispose: async () => {
        if (open) await closeOrm(orm);
        open = false;
      },
    };
  }
  const name = `lsp_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((execute) => execute(`create database "${name}"`));
  let orm: Orm;
  try {
    orm = await createOrm({ databaseUrl: databaseUrl(TEST_POSTGRES_ADMIN_URL, name), dataDir: '' });
  } catch (error) {
    await withAdmin((execute) => execute(`drop database if exists "${name}" with (force)`));
    throw error;
  }
  let open = true;
  return {
    backend,
    orm,
    dispose: async () => {
      if (!open) return;
      open = false;
      await closeOrm(orm).catch(() => undefined);
      await withAdmin((execute) => execute(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** A throwaway database with the schema of every migration (PGlite: a copy of the template, deleted on dispose). */
export async function openMigratedTestDatabase(backend: TestBackend): Promise<TestDatabase> {
  if (backend === 'postgresql') {
    const db = await openTestDatabase(backend);
    await migrateUp(db.orm);
    return db;
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'test-db-pglite-'));
  await copyPgliteTemplate(dataDir);
  const db = await openTestDatabase(backend, { pgliteDir: path.join(dataDir, 'pglite') });
  return {
    ...db,
    dispose: async () => {
      await db.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` and counts the SQL statements `orm`'s connection executed meanwhile (N+1 checks). */
export async function countStatements(orm: MikroORM, work: () => Promise<unknown>): Promise<number> {
  const connection = orm.em.getConnection();
  const original = connection.execute;
  let count = 0;
  connection.execute = function (this: unknown, ...args: Parameters<typeof original>) {
    count++;
    return original.apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    connection.execute = original;
  }
  return count;
}
