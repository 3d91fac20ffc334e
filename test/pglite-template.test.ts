/**
 * The PGlite template the e2e tests copy into their DATA_DIRs (test/helpers/pglite-template.ts):
 * a cleanly shut-down cluster with exactly the repository's migrations applied, the same schema as
 * a cluster migrated from empty, keyed so that a changed migration makes another one.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrationsList } from '../migrations/index.js';
import { closeOrm, createOrm, migrateUp, MIGRATIONS_DIR, type Orm } from '../src/db/orm.js';
import { copyPgliteTemplate, isCleanlyShutDown, makeTestDataDir, pgliteTemplate, pgliteTemplateKey } from './helpers/pglite-template.js';
import { openMigratedTestDatabase } from './helpers/test-databases.js';

/** Tables, columns, indexes and constraints of the public schema, in a stable order. */
async function schemaOf(orm: Orm): Promise<unknown[]> {
  const run = (sql: string) => orm.em.getConnection().execute(sql);
  return [
    await run(`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = 'public' order by 1, 2`),
    await run(`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`),
    await run(`select conname, pg_get_constraintdef(oid) as def from pg_constraint where connamespace = 'public'::regnamespace order by 1`),
  ];
}

describe('the PGlite template', () => {
  const temps: string[] = [];
  afterAll(async () => {
    for (const dir of temps) await rm(dir, { recursive: true, force: true });
  });

  it('is a cleanly shut-down cluster, named by its key, that a second call does not rebuild', async () => {
    const template = await pgliteTemplate();
    expect(path.basename(template)).toBe(`lsp-pglite-template-${pgliteTemplateKey()}`);
    expect(isCleanlyShutDown(template)).toBe(true);
    expect(await pgliteTemplate()).toBe(template);
  });

  it('a cluster still open is not clean: the check can fail', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pglite-open-'));
    temps.push(dir);
    await cp(await pgliteTemplate(), path.join(dir, 'pglite'), { recursive: true });
    const open = new PGlite(path.join(dir, 'pglite'));
    try {
      await open.query('select 1');
      expect(isCleanlyShutDown(path.join(dir, 'pglite'))).toBe(false);
    } finally {
      await open.close();
    }
    expect(isCleanlyShutDown(path.join(dir, 'pglite'))).toBe(true);
    expect(isCleanlyShutDown(path.join(dir, 'missing'))).toBe(false);
  });

  it('a DATA_DIR made from it has every migration of migrations/index.ts applied and the schema of a cluster migrated from empty', async () => {
    const dataDir = await makeTestDataDir('pglite-template-test-');
    temps.push(dataDir);
    const copy = await createOrm({ databaseUrl: undefined, dataDir });
    const fresh = await createOrm({ databaseUrl: undefined, dataDir: '' }, { pgliteDir: 'memory://' });
    try {
      expect((await copy.migrator.getExecuted()).map((m) => m.name)).toEqual(migrationsList.map((m) => m.name));
      expect(await copy.migrator.getPending()).toEqual([]);
      expect(await migrateUp(fresh)).toEqual(migrationsList.map((m) => m.name));
      expect(await schemaOf(copy)).toEqual(await schemaOf(fresh));
    } finally {
      await closeOrm(copy);
      await closeOrm(fresh);
    }
  });

  it('gives the database tests a PGlite of their own with every migration applied', async () => {
    const db = await openMigratedTestDatabase('pglite');
    try {
      expect(await db.orm.migrator.getPending()).toEqual([]);
      expect((await db.orm.migrator.getExecuted()).map((m) => m.name)).toEqual(migrationsList.map((m) => m.name));
    } finally {
      await db.dispose();
    }
  });

  it('never overwrites a DATA_DIR that already has a database', async () => {
    const dataDir = await makeTestDataDir('pglite-template-twice-');
    temps.push(dataDir);
    await expect(copyPgliteTemplate(dataDir)).rejects.toThrow();
    expect(existsSync(path.join(dataDir, 'pglite', 'global', 'pg_control'))).toBe(true);
  });

  it('gets another key when a migration changes or is added, so a stale template is never used', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-copy-'));
    temps.push(dir);
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const key = pgliteTemplateKey(dir);
    expect(key).toBe(pgliteTemplateKey());
    await writeFile(path.join(dir, migrationsList[0]!.name + '.ts'), '// changed\n', { flag: 'a' });
    const changed = pgliteTemplateKey(dir);
    expect(changed).not.toBe(key);
    await writeFile(path.join(dir, 'Migration29990101000000_new.ts'), 'export {};\n');
    expect(pgliteTemplateKey(dir)).not.toBe(changed);
  });
});
