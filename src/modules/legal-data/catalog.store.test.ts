import { openMigratedTestDatabase, TEST_BACKENDS, type TestDatabase } from '../../../test/helpers/test-databases.js';
import { ValidationError } from '../../errors.js';
import {
  createIngestStore,
  getIndexState,
  getIngestFile,
  getSource,
  listIngestFiles,
  listSources,
  loadCatalogue,
  saveIngestFile,
  setIndexState,
  upsertSources,
  type IngestFileInput,
  type SourceInput,
} from './catalog.store.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

const bopa: SourceInput = {
  source: 'AD/BOPA',
  country: 'AD',
  name: 'Andorra Official Gazette (BOPA)',
  data_types: ['legislation'],
  url: 'https://www.bopa.ad',
  license_id: 'ogd',
  license_name: 'Open Government Data',
  license_url: 'https://www.bopa.ad',
  commercial_use: true,
  status: 'complete',
  blocked_reason: null,
  court_name: null,
  tier: null,
  notes: 'Catalan language.',
};
const courts: SourceInput = {
  source: 'AD/Courts',
  country: 'AD',
  name: 'Andorra Tribunal Superior de Justícia',
  data_types: ['case_law'],
  url: 'https://www.justicia.ad/cercador-jurisprudencia/',
  commercial_use: null,
  status: 'blocked',
  blocked_reason: 'spa_requires_browser_automation',
  tier: 2,
};
const gii: SourceInput = {
  source: 'DE/GesetzeImInternet',
  country: 'DE',
  name: 'Gesetze im Internet',
  data_types: ['legislation', 'doctrine'],
  license_id: 'public-domain',
  commercial_use: true,
  status: 'complete',
};

describe.each(TEST_BACKENDS)('catalog store on %s', (backend) => {
  let db: TestDatabase;
  const em = () => db.orm.em.fork();

  beforeAll(async () => {
    db = await openMigratedTestDatabase(backend);
  });
  afterAll(async () => {
    await db?.dispose();
  });

  describe('sources', () => {
    it('inserts, then finds nothing to do on the same input, then updates only changed rows', async () => {
      expect(await upsertSources(em(), [bopa, courts, gii])).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
      const before = await getSource(em(), 'DE/GesetzeImInternet');

      expect(await upsertSources(em(), [bopa, courts, gii])).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
      expect((await getSource(em(), 'DE/GesetzeImInternet'))?.updated_at).toEqual(before?.updated_at);

      await new Promise((resolve) => setTimeout(resolve, 5));
      const changed = { ...gii, name: 'Gesetze im Internet (BMJ)', data_types: ['legislation'], tier: 1 };
      expect(await upsertSources(em(), [bopa, courts, changed])).toEqual({ inserted: 0, updated: 1, unchanged: 2 });

      const after = await getSource(em(), 'DE/GesetzeImInternet');
      expect(after).toMatchObject({ name: 'Gesetze im Internet (BMJ)', data_types: ['legislation'], tier: 1 });
      expect(after!.updated_at.getTime()).toBeGreaterThan(before!.updated_at.getTime());
    });

    it('stores every catalogue field and fills missing optional ones with null', async () => {
      expect(await getSource(em(), 'AD/BOPA')).toEqual({ ...bopa, updated_at: expect.any(Date) });
      expect(await getSource(em(), 'AD/Courts')).toEqual({
        ...courts,
        license_id: null,
        license_name: null,
        license_url: null,
        court_name: null,
        notes: null,
        updated_at: expect.any(Date),
      });
      expect(await getSource(em(), 'XX/Nope')).toBeNull();
    });

    it('lists sources ordered by key, optionally for one country', async () => {
      expect((await listSources(em())).map((s) => s.source)).toEqual(['AD/BOPA', 'AD/Courts', 'DE/GesetzeImInternet']);
      expect((await listSources(em(), { country: 'AD' })).map((s) => s.source)).toEqual(['AD/BOPA', 'AD/Courts']);
      expect(await listSources(em(), { country: 'FR' })).toEqual([]);
      expect((await loadCatalogue(em())).length).toBe(3);
    });

    it('rejects invalid input before writing anything', async () => {
      const bad = [{ ...bopa, source: 'AD/New-One' }, { ...courts, source: 'no-slash' }];
      const error = await upsertSources(em(), bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]).toMatchObject({ loc: [1, 'source'] });
      expect(await getSource(em(), 'AD/New-One')).toBeNull();
    });

    it('rolls the whole upsert back when the database rejects one row', async () => {
      const batch: SourceInput[] = [
        { ...bopa, name: 'renamed inside a failing batch' },
        { ...gii, source: 'DE/Valid-New', name: 'valid new source' },
        { ...gii, source: 'DE/Broken', tier: 2 ** 40 }, // out of range for int: fails in the database
      ];
      await expect(upsertSources(em(), batch)).rejects.toThrow(/out of range/i);
      expect((await getSource(em(), 'AD/BOPA'))?.name).toBe(bopa.name);
      expect(await getSource(em(), 'DE/Valid-New')).toBeNull();
      expect(await getSource(em(), 'DE/Broken')).toBeNull();
      expect((await listSources(em())).length).toBe(3);
    });

    it('keeps the last occurrence of a source listed twice', async () => {
      const counts = await upsertSources(em(), [
        { ...gii, source: 'DE/Twice', name: 'first' },
        { ...gii, source: 'DE/Twice', name: 'second' },
      ]);
      expect(counts).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
      expect((await getSource(em(), 'DE/Twice'))?.name).toBe('second');
    });

    it('joins the caller transaction and rolls back with it', async () => {
      await expect(
        em().transactional(async (tx) => {
          await upsertSources(tx, [{ ...gii, source: 'DE/InOuterTx' }]);
          expect(await getSource(tx, 'DE/InOuterTx')).not.toBeNull();
          throw new Error('abort outer');
        }),
      ).rejects.toThrow('abort outer');
      expect(await getSource(em(), 'DE/InOuterTx')).toBeNull();
    });
  });

  describe('ingest checkpoints', () => {
    const file: IngestFileInput = {
      path: 'documents/legislation/DE-GesetzeImInternet.jsonl.gz',
      sha256: SHA_A,
      size: 5_000_000_000, // > 2^32: needs the bigint column
      status: 'in_progress',
      lines_done: 500,
      documents_indexed: 498,
      bad_lines: 2,
    };

    it('round-trips a checkpoint and replaces it on the next save', async () => {
      expect(await getIngestFile(em(), file.path)).toBeNull();

      const saved = await saveIngestFile(em(), file);
      expect(saved).toEqual({ ...file, updated_at: expect.any(Date) });
      expect(await getIngestFile(em(), file.path)).toEqual({ ...file, updated_at: expect.any(Date) });

      const done = { ...file, sha256: SHA_B, status: 'complete' as const, lines_done: 1000, documents_indexed: 997, bad_lines: 3 };
      await saveIngestFile(em(), done);
      expect(await getIngestFile(em(), file.path)).toEqual({ ...done, updated_at: expect.any(Date) });
    });

    it('lists checkpoints ordered by path', async () => {
      await saveIngestFile(em(), { ...file, path: 'documents/case_law/AD-Courts.jsonl.gz', size: 10 });
      expect((await listIngestFiles(em())).map((f) => f.path)).toEqual([
        'documents/case_law/AD-Courts.jsonl.gz',
        'documents/legislation/DE-GesetzeImInternet.jsonl.gz',
      ]);
    });

    it('rejects an invalid checkpoint', async () => {
      await expect(saveIngestFile(em(), { ...file, path: 'x', status: 'half-done' as never })).rejects.toBeInstanceOf(ValidationError);
      await expect(saveIngestFile(em(), { ...file, path: 'x', lines_done: -1 })).rejects.toBeInstanceOf(ValidationError);
      expect(await getIngestFile(em(), 'x')).toBeNull();
    });

    it('serves the ingest through createIngestStore', async () => {
      const store = createIngestStore(db.orm);
      await store.saveFile({ ...file, path: 'documents/doctrine/X.jsonl.gz' });
      expect(await store.getFile('documents/doctrine/X.jsonl.gz')).toMatchObject({ status: 'in_progress', lines_done: 500 });
      expect(await store.upsertSources([bopa])).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
    });
  });

  describe('index state', () => {
    it('stores any JSON value per key, overwrites it, and removes it on null', async () => {
      expect(await getIndexState(em(), 'embedding_model')).toBeNull();
      await setIndexState(em(), 'embedding_model', 'static:model2vec');
      await setIndexState(em(), 'corpus_fingerprint', { files: 12, sha256: SHA_A, nested: [1, 'two', null] });
      await setIndexState(em(), 'chunks', 0);
      expect(await getIndexState(em(), 'embedding_model')).toBe('static:model2vec');
      expect(await getIndexState(em(), 'corpus_fingerprint')).toEqual({ files: 12, sha256: SHA_A, nested: [1, 'two', null] });
      expect(await getIndexState(em(), 'chunks')).toBe(0);

      await setIndexState(em(), 'embedding_model', 'static:other');
      expect(await getIndexState<string>(em(), 'embedding_model')).toBe('static:other');

      await setIndexState(em(), 'embedding_model', null);
      expect(await getIndexState(em(), 'embedding_model')).toBeNull();
    });
  });
});
