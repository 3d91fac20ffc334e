/**
 * Hosted embedder: Pinecone Inference (`POST /embed` of the Pinecone API, e.g. the
 * `multilingual-e5-large` model) through the official `@pinecone-database/pinecone` client,
 * for deployments that run on Pinecone. Queries are sent with `input_type: query` and
 * passages with `input_type: passage` (the e5 convention), long inputs are truncated at the
 * end by the service, and vectors come back L2-normalised like every other embedder's.
 */
import { Pinecone } from '@pinecone-database/pinecone';
import type { Embedder } from '../embedder.js';

export interface HostedEmbedderOptions {
  model: string;
  apiKey: string;
  /** The Pinecone API's base URL (default https://api.pinecone.io); tests point it at a local server. */
  controllerHostUrl?: string;
  /** Inputs per request (the hosted e5 models accept up to 96). */
  batchSize?: number;
}

function normalise(values: number[]): Float32Array {
  const v = Float32Array.from(values);
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  if (n > 0) {
    const inv = 1 / Math.sqrt(n);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}

export class HostedEmbedder implements Embedder {
  private constructor(
    readonly id: string,
    readonly dimension: number,
    private readonly client: Pinecone,
    private readonly options: HostedEmbedderOptions,
  ) {}

  /** Connects and asks the model for one vector, to learn its dimension (and fail fast on a bad key or model). */
  static async create(options: HostedEmbedderOptions): Promise<HostedEmbedder> {
    const client = new Pinecone({ apiKey: options.apiKey, ...(options.controllerHostUrl ? { controllerHostUrl: options.controllerHostUrl } : {}) });
    const [probe] = await HostedEmbedder.call(client, options.model, ['dimension probe'], 'query');
    if (!probe || probe.length === 0) throw new Error(`hosted embedder: model ${options.model} returned no dense vector`);
    return new HostedEmbedder(`pinecone:${options.model}:${probe.length}`, probe.length, client, options);
  }

  private static async call(client: Pinecone, model: string, texts: string[], inputType: 'query' | 'passage'): Promise<Float32Array[]> {
    const result = await client.inference.embed({ model, inputs: texts, parameters: { inputType, truncate: 'END' } });
    return result.data.map((e) => {
      if (e.vectorType !== 'dense' || !('values' in e) || !Array.isArray(e.values)) {
        throw new Error(`hosted embedder: model ${model} returned a ${e.vectorType} embedding (a dense model is needed)`);
      }
      return normalise(e.values);
    });
  }

  private async embed(texts: string[], inputType: 'query' | 'passage'): Promise<Float32Array[]> {
    const size = this.options.batchSize ?? 96;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += size) {
      out.push(...(await HostedEmbedder.call(this.client, this.options.model, texts.slice(i, i + size), inputType)));
    }
    return out;
  }

  embedQueries(texts: string[]): Promise<Float32Array[]> {
    return this.embed(texts, 'query');
  }

  embedPassages(texts: string[]): Promise<Float32Array[]> {
    return this.embed(texts, 'passage');
  }
}
