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

/** The start-up banner's line: where vectors come from, or that recall is lexical only. */
export function embeddingsBanner(config: EmbeddingsConfig, url: string | null | undefined): string {
  if (config.mode === 'off') return 'off (EMBEDDINGS=off: recall is lexical only)';
  if (config.mode === 'external')
    return `${config.url ?? ''}   model ${config.model} (${config.dimensions} dimensions)`;
  const threads = `${config.threads} thread${config.threads === 1 ? '' : 's'}`;
  return url
    ? `${url}   model ${config.model} (${config.dimensions} dimensions, ${threads})`
    : 'not started (external engines: set EMBEDDINGS_URL to use recall by meaning)';
}
