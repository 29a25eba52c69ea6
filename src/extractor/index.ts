// The one place the service picks an extractor, so callers depend on the Extractor contract only.
import type { Extractor } from './types.js';
import { BuiltinExtractor } from './builtin.js';
import { LlmExtractor } from './llm.js';

export type {
  ExtractedEntity,
  ExtractedRelationship,
  ExtractionResult,
  ExtractOptions,
  Extractor,
  Mention,
} from './types.js';
export { BuiltinExtractor } from './builtin.js';
export { LlmExtractor, LlmExtractionError, DEFAULT_LLM_TIMEOUT_MS, type LlmExtractorConfig } from './llm.js';
export { normalizeName, entityKey } from './normalize.js';
export { scoreExtraction, type QualityScore, type QualityComponents } from './quality.js';

export interface ExtractorConfig {
  baseUrl?: string;
  apiKey?: string;
  model: string;
}

export function createExtractor(config: ExtractorConfig, choice: 'builtin' | 'llm' = 'builtin'): Extractor {
  if (choice === 'builtin') return new BuiltinExtractor();
  if (!config.baseUrl) throw new Error('the llm extractor needs a base URL (LLM_BASE_URL)');
  return new LlmExtractor({ baseUrl: config.baseUrl, apiKey: config.apiKey, model: config.model });
}
