// Builds the embedder of a running service from its configuration and the engine's address
// (EMBEDDINGS_URL, or the embedded engine's URL that ensureServices returned).
import type { EmbeddingsConfig } from '../config/config.js';
import { OpenAIEmbedder } from './client.js';

/** Null when EMBEDDINGS=off, or when no endpoint is known (then recall is lexical only). */
export function createEmbedder(config: EmbeddingsConfig, url: string | null | undefined): OpenAIEmbedder | null {
  if (config.mode === 'off') return null;
  const base = config.mode === 'external' ? config.url : url;
  if (!base) return null;
  return new OpenAIEmbedder({ ...config, url: base });
}
