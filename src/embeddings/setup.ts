// Builds the embedder of a running service from its configuration and the engine's address
// (EMBEDDINGS_URL, or the embedded engine's URL that ensureServices returned).
import type { EmbeddingsConfig } from '../config/config.js';
import { OpenAIEmbedder } from './client.js';

/** Null when EMBEDDINGS=off, or when no endpoint is known (then recall is lexical only). */
export function createEmbedder(
  config: EmbeddingsConfig,
  url: string | null | undefined,
  queryUrl: string | null = null,
): OpenAIEmbedder | null {
  if (config.mode === 'off') return null;
  const base = config.mode === 'external' ? config.url : url;
  if (!base) return null;
  // One cache of question vectors, the outer embedder's: the questions' engine keeps none of its own.
  const questions =
    config.mode === 'embedded' && queryUrl ? new OpenAIEmbedder({ ...config, url: queryUrl, questionCache: 0 }) : null;
  // The embedded engines run on this machine's cores (recall embeds a question before its statements start).
  return new OpenAIEmbedder({ ...config, url: base, sharesCores: config.mode === 'embedded' }, questions);
}

/** The embedded engines' URLs for a process that did not start them (npm run api, npm run worker). */
export function localEmbeddingsUrls(config: EmbeddingsConfig): { url: string; queryUrl: string | null } {
  return {
    url: `http://127.0.0.1:${config.port}/v1`,
    queryUrl: config.queryEngine ? `http://127.0.0.1:${config.port + 1}/v1` : null,
  };
}

/** The start-up banner's line: where vectors come from, or that recall is lexical only. */
export function embeddingsBanner(config: EmbeddingsConfig, url: string | null | undefined): string {
  if (config.mode === 'off') return 'off (EMBEDDINGS=off: recall is lexical only)';
  if (config.mode === 'external')
    return `${config.url ?? ''}   model ${config.model} (${config.dimensions} dimensions)`;
  const plural = (n: number) => `${n} thread${n === 1 ? '' : 's'}`;
  // The question engine (config queryEngine) has threads of its own.
  const threads = config.queryEngine
    ? `${plural(config.threads)}, questions ${plural(config.queryThreads)}`
    : plural(config.threads);
  return url
    ? `${url}   model ${config.model} (${config.dimensions} dimensions, ${threads})`
    : 'not started (external engines: set EMBEDDINGS_URL to use recall by meaning)';
}
