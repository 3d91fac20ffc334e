/** The embedder port: turns queries and passages into unit-length vectors. */
export interface Embedder {
  /** Stable id of the model (changes when the model changes: the index re-embeds then). */
  readonly id: string;
  readonly dimension: number;
  /**
   * The model's cosine levels for unrelated texts (`low`) and strong matches (`high`), which
   * the hybrid fusion rescales cosine similarities with; absent = raw cosine.
   */
  readonly scale?: { low: number; high: number };
  embedQueries(texts: string[]): Promise<Float32Array[]>;
  embedPassages(texts: string[]): Promise<Float32Array[]>;
}
