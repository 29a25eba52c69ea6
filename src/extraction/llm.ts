// Extraction by an OpenAI-compatible chat completions endpoint, for deployments that configure
// one (LLM_BASE_URL); same contract as the built-in extractor, but not deterministic across models.
import type { ShapeDef } from '../shapes/types.js';
import type { ExtractionResult, ExtractOptions, Extractor } from './types.js';
import { buildMessages, LlmExtractionError, parseReply } from './llmReply.js';

export { LlmExtractionError } from './llmReply.js';

export const DEFAULT_LLM_TIMEOUT_MS = 30_000;

export interface LlmExtractorConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

const snippet = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

export class LlmExtractor implements Extractor {
  readonly name: string;

  constructor(private readonly config: LlmExtractorConfig) {
    this.name = `llm/${config.model}`;
  }

  async extract(text: string, shape: ShapeDef, options: ExtractOptions): Promise<ExtractionResult> {
    const content = await this.complete(buildMessages(text, shape, options));
    return parseReply(content, text, shape);
  }

  private async complete(messages: ReturnType<typeof buildMessages>): Promise<string> {
    const url = `${this.config.baseUrl.replace(/\/+$/u, '')}/chat/completions`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    const body = JSON.stringify({ model: this.config.model, temperature: 0, response_format: { type: 'json_object' }, messages });
    const timeoutMs = this.config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let status: number;
    let raw: string;
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: controller.signal });
      status = response.status;
      raw = await response.text();
    } catch (e) {
      if (controller.signal.aborted) throw new LlmExtractionError(`LLM endpoint did not answer within ${timeoutMs} ms`);
      throw new LlmExtractionError(`LLM endpoint unreachable: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      clearTimeout(timer);
    }
    if (status < 200 || status >= 300) throw new LlmExtractionError(`LLM endpoint answered HTTP ${status}: ${snippet(raw)}`);
    let reply: unknown;
    try {
      reply = JSON.parse(raw);
    } catch {
      throw new LlmExtractionError(`LLM endpoint answer is not JSON: ${snippet(raw)}`);
    }
    const content = (reply as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new LlmExtractionError('LLM endpoint answer has no choices[0].message.content string');
    return content;
  }
}
