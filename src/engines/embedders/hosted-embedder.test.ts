import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../config.js';
import { createEmbedder } from './create-embedder.js';
import { HostedEmbedder } from './hosted-embedder.js';

/** A local server that speaks Pinecone Inference's `POST /embed` (same request and response shapes). */
interface Received {
  apiKey: string | undefined;
  version: string | undefined;
  body: { model: string; inputs: { text: string }[]; parameters?: Record<string, unknown> };
}

const DIM = 8;
/** A deterministic, unnormalised vector per text (so the test can check normalisation). */
function fakeVector(text: string): number[] {
  const v = new Array<number>(DIM).fill(0);
  for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
    let h = 0;
    for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    v[h % DIM] += 3;
  }
  v[DIM - 1] += 1;
  return v;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return JSON.parse(raw);
}

describe('hosted (Pinecone Inference) embedder', () => {
  let server: Server;
  let url: string;
  const received: Received[] = [];
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const apiKey = req.headers['api-key'] as string | undefined;
      if (req.method !== 'POST' || req.url !== '/embed') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'no route' } }));
        return;
      }
      const body = (await readJson(req)) as Received['body'];
      received.push({ apiKey, version: req.headers['x-pinecone-api-version'] as string | undefined, body });
      if (apiKey !== 'test-key') {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'UNAUTHENTICATED', message: 'Invalid API Key' }, status: 401 }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          model: body.model,
          vector_type: 'dense',
          data: body.inputs.map((i) => ({ vector_type: 'dense', values: fakeVector(i.text) })),
          usage: { total_tokens: body.inputs.length * 5 },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('embeds queries and passages through the real client, as unit vectors of the model dimension', async () => {
    const embedder = await HostedEmbedder.create({ model: 'multilingual-e5-large', apiKey: 'test-key', controllerHostUrl: url, batchSize: 2 });
    expect(embedder.dimension).toBe(DIM);
    expect(embedder.id).toBe(`pinecone:multilingual-e5-large:${DIM}`);
    received.length = 0;
    const passages = await embedder.embedPassages(['breach of contract', 'personal data', 'tax law', 'prison sentence', 'consent']);
    expect(passages).toHaveLength(5);
    for (const v of passages) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(DIM);
      expect(v.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 5);
    }
    // Batches of 2, in order, marked as passages; the API key and version headers are sent.
    expect(received.map((r) => r.body.inputs.map((i) => i.text))).toEqual([['breach of contract', 'personal data'], ['tax law', 'prison sentence'], ['consent']]);
    expect(received.every((r) => r.body.parameters?.input_type === 'passage' && r.body.parameters?.truncate === 'END')).toBe(true);
    expect(received[0].apiKey).toBe('test-key');
    expect(received[0].version).toMatch(/^\d{4}-\d{2}/);
    received.length = 0;
    const [q] = await embedder.embedQueries(['breach of contract']);
    expect(received[0].body.parameters?.input_type).toBe('query');
    expect(Array.from(q)).toEqual(Array.from(passages[0]));
  });

  it('is chosen by EMBEDDER=hosted:<model>, needs PINECONE_API_KEY, and fails clearly on a bad key', async () => {
    expect(() => loadConfig({ EMBEDDER: 'hosted:multilingual-e5-large' })).toThrow(/PINECONE_API_KEY/);
    const config = loadConfig({ EMBEDDER: 'hosted:multilingual-e5-large', PINECONE_API_KEY: 'test-key', PINECONE_CONTROLLER_HOST: url });
    expect(config.embedder).toEqual({ kind: 'hosted', model: 'multilingual-e5-large', apiKey: 'test-key', host: url });
    const embedder = await createEmbedder(config.embedder, config.dataDir);
    expect(embedder?.dimension).toBe(DIM);
    await expect(HostedEmbedder.create({ model: 'multilingual-e5-large', apiKey: 'wrong', controllerHostUrl: url })).rejects.toThrow();
  });
});
