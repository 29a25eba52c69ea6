// Chooses the briefing writer from configuration: the LLM writer when an endpoint is configured,
// otherwise the built-in writer, so synthesize always has a writer.
import { BuiltinBriefingWriter } from './builtin.js';
import { LlmBriefingWriter } from './llm.js';
import type { BriefingWriter } from './types.js';

export function createBriefingWriter(llm: { baseUrl?: string; apiKey?: string; model: string }): BriefingWriter {
  if (llm.baseUrl === undefined || llm.baseUrl === '') return new BuiltinBriefingWriter();
  return new LlmBriefingWriter({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.model });
}

export { BuiltinBriefingWriter, BUILTIN_BRIEFING_MODEL } from './builtin.js';
export { LlmBriefingWriter, LlmEndpointError, DEFAULT_LLM_TIMEOUT_MS } from './llm.js';
export type { LlmBriefingOptions } from './llm.js';
export { selectEvidence, DEFAULT_MAX_EVIDENCE, KIND_ORDER } from './select.js';
export { briefingHashes, canonicalJson, sha256Hex, normalizeQuery } from './hashes.js';
export type {
  Briefing,
  BriefingHashes,
  BriefingInput,
  BriefingMemory,
  BriefingSpec,
  BriefingWriter,
  MemoryKind,
} from './types.js';
