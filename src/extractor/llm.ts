// Extraction by an OpenAI-compatible chat completions endpoint, for deployments that configure
// one (LLM_BASE_URL); same contract as the built-in extractor, but not deterministic across models.
// The transport (timeouts, retries, safe error messages) is the shared client in src/llm/client.ts.
import type { ShapeDef } from '../shapes/types.js';
import type { ExtractionResult, ExtractOptions, Extractor } from './types.js';
import { buildMessages, LlmExtractionError, parseReply } from './llmReply.js';
import { LlmCallError, LlmClient, type LlmClientConfig } from '../llm/client.js';

export { LlmExtractionError } from './llmReply.js';

export { DEFAULT_LLM_TIMEOUT_MS } from '../llm/client.js';

export type LlmExtractorConfig = LlmClientConfig;

export class LlmExtractor implements Extractor {
  readonly name: string;

  private readonly client: LlmClient;

  constructor(config: LlmExtractorConfig) {
    this.name = `llm/${config.model}`;
    this.client = new LlmClient(config);
  }

  async extract(text: string, shape: ShapeDef, options: ExtractOptions): Promise<ExtractionResult> {
    const content = await this.complete(buildMessages(text, shape, options));
    return parseReply(content, text, shape);
  }

  private async complete(messages: ReturnType<typeof buildMessages>): Promise<string> {
    try {
      return await this.client.complete(messages, { json: true });
    } catch (error) {
      if (error instanceof LlmCallError) throw new LlmExtractionError(`LLM endpoint failed: ${error.message}`);
      throw error;
    }
  }
}
