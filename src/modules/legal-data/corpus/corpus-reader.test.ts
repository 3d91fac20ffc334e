import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { countLines, parseDocumentRecord, readJsonLines } from './corpus-reader.js';

describe('corpus reader', () => {
  const good = { source: 'DE/GesetzeImInternet', source_id: 'bgb/823', namespace: 'legislation', country: 'DE', title: '§ 823 BGB', text: 'Wer vorsätzlich …', short_names: ['BGB'] };

  it('builds documents with ids that keep slashes', () => {
    const r = parseDocumentRecord(good);
    expect(r.ok && r.value.id).toBe('DE/GesetzeImInternet/bgb/823');
    expect(r.ok && r.value.court_tier).toBeNull();
    expect(r.ok && r.value.extra).toEqual({});
  });

  it('reports bad lines with their numbers and keeps going', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'reader-'));
    const file = path.join(dir, 'x.jsonl.gz');
    const lines = [JSON.stringify(good), '{not json', JSON.stringify({ ...good, namespace: 'poetry' }), '', JSON.stringify({ ...good, source_id: 'bgb/824' })];
    await writeFile(file, gzipSync(lines.join('\n')));
    const seen = [];
    for await (const entry of readJsonLines(file, parseDocumentRecord)) seen.push(entry);
    expect(seen.map((e) => [e.line, e.ok])).toEqual([[1, true], [2, false], [3, false], [5, true]]);
    expect(!seen[1].ok && seen[1].error).toMatch(/invalid JSON/);
    expect(!seen[2].ok && seen[2].error).toMatch(/namespace/);
    expect(await countLines(file)).toBe(5);
  });
});
