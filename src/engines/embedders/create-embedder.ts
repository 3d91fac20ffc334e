/** Builds the embedder the configuration asks for (null when semantic search is off). */
import type { EmbedderSetting } from '../../config.js';
import type { Embedder } from '../embedder.js';
import { loadStaticEmbedder } from './static-embedder.js';

export async function createEmbedder(setting: EmbedderSetting): Promise<Embedder | null> {
  switch (setting.kind) {
    case 'none':
      return null;
    case 'static':
      return loadStaticEmbedder(setting.dir);
  }
}
