import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../logger.js';
import { openMigratedTestDatabase, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { spillBatch } from './batch-spill.js';
import { insertUsageEvents, type UsageEventRow } from './usage-event.queries.js';
import { UsageRecorder } from './usage-recorder.js';

const row = (ip: string): UsageEventRow => ({ user_id: null, api_key_id: null, client_ip: ip, endpoint: 'search', status: 200, created_at: new Date(), event_id: randomUUID() });

describe('usage recorder spill files (PGlite)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openMigratedTestDatabase('pglite');
  });
  afterAll(() => db.dispose());

  const count = async (ip: string) => Number((await db.orm.em.fork().getConnection().execute('select count(*) as n from usage_event where client_ip = ?', [ip]))[0].n);

  it('replays a spill file at start once, also when its rows were inserted before the process died (event ids), and removes it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'usage-spill-'));
    const ip = '192.0.2.10';
    const rows = Array.from({ length: 6 }, () => row(ip));
    // the crash: the first four rows were inserted, the file was not deleted yet
    await insertUsageEvents(db.orm.em.fork(), rows.slice(0, 4));
    await spillBatch(dir, 'usage_event', rows, Date.now());
    // a write cut by a crash (never renamed): not a batch, removed
    await writeFile(path.join(dir, '000000000000001-1-1-usage_event-3.json.tmp'), '[{"half');

    const recorder = new UsageRecorder(db.orm, createLogger('silent'), { spillDir: dir });
    await recorder.start();
    await recorder.flush();
    expect(await count(ip)).toBe(6);
    expect(await readdir(dir)).toEqual([]);
    expect(recorder.lag()).toMatchObject({ pending_rows: 0, spilled_batches: 0, lagging: false });

    // a second replay of the same rows (another copy of the file) inserts nothing
    await spillBatch(dir, 'usage_event', rows, Date.now());
    const again = new UsageRecorder(db.orm, createLogger('silent'), { spillDir: dir });
    await again.start();
    await again.flush();
    expect(await count(ip)).toBe(6);
  });

  it('writes a replayed row of an account erased since it was spilled without its user and key', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'usage-spill-'));
    const kept = randomUUID();
    const erased = randomUUID();
    await db.orm.em.fork().getConnection().execute('insert into app_user (id, email, email_lower, created_at) values (?, ?, ?, now())', [kept, `${kept}@example.org`, `${kept}@example.org`]);
    const ip = '192.0.2.11';
    const mine = (user: string) => ({ ...row(ip), user_id: user, api_key_id: randomUUID() });
    await spillBatch(dir, 'usage_event', [mine(kept), mine(erased)], Date.now());
    const recorder = new UsageRecorder(db.orm, createLogger('silent'), { spillDir: dir });
    await recorder.start();
    await recorder.flush();
    const written = await db.orm.em.fork().getConnection().execute('select user_id, api_key_id from usage_event where client_ip = ? order by user_id nulls last', [ip]);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatchObject({ user_id: kept });
    expect(written[1]).toEqual({ user_id: null, api_key_id: null });
  });

  it('sets an unreadable spill file aside as *.bad instead of retrying it forever', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'usage-spill-'));
    await writeFile(path.join(dir, '000000000000002-1-1-usage_event-2.json'), '{"kind":"usage_event","rows":[{');
    const recorder = new UsageRecorder(db.orm, createLogger('silent'), { spillDir: dir });
    await recorder.start();
    await recorder.flush();
    // the rename is not awaited by the recorder (fire and forget): wait for it, bounded
    for (let i = 0; i < 250 && !(await readdir(dir)).some((f) => f.endsWith('.bad')); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await readdir(dir)).toEqual(['000000000000002-1-1-usage_event-2.json.bad']);
    expect(recorder.lag()).toMatchObject({ pending_rows: 0, dropped_rows: 2, lagging: false });
  });
});
