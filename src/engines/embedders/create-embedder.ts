/** Builds the embedder the configuration asks for (null when semantic search is off). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { EmbedderSetting } from '../../config.js';
import type { Embedder } from '../embedder.js';
import { HostedEmbedder } from './hosted-embedder.js';
import { loadOnnxEmbedder } from './onnx-embedder.js';
import { loadStaticEmbedder } from './static-embedder.js';

/** Where the domain model trained for a DATA_DIR lives (EMBEDDER=auto). */
export function defaultModelDir(dataDir: string): string {
  return path.join(dataDir, 'models', 'domain-static');
}

/** True when a trained domain model is in DATA_DIR. */
export function hasTrainedModel(dataDir: string): boolean {
  return existsSync(path.join(defaultModelDir(dataDir), 'model.safetensors'));
}

/**
 * The configured embedder. `auto` loads the domain model trained into DATA_DIR, or gives null
 * when it has not been trained yet (the server then trains it in the background).
 */
export async function createEmbedder(setting: EmbedderSetting, dataDir: string): Promise<Embedder | null> {
  switch (setting.kind) {
    case 'none':
      return null;
    case 'auto':
      return hasTrainedModel(dataDir) ? loadStaticEmbedder(defaultModelDir(dataDir)) : null;
    case 'static':
      return loadStaticEmbedder(setting.dir);
    case 'onnx':
      return loadOnnxEmbedder(setting.model, { cacheDir: path.join(dataDir, 'models', 'hf') });
    case 'hosted':
      return HostedEmbedder.create({ model: setting.model, apiKey: setting.apiKey, controllerHostUrl: setting.host });
  }
}
