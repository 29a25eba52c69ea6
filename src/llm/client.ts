// The one client for OpenAI-compatible chat completion endpoints (LLM_BASE_URL), used by the LLM
// extractor and the LLM briefing writer. It wraps the maintained `openai` package: per-attempt
// timeout, retries with backoff on connection errors, 408/409/429 and 5xx, and one error type whose
// message is safe to show an API client (status and kind of failure only). What the endpoint said is
// kept apart in `detail`, for logs, and never put in the message.
import OpenAI from 'openai';

export const DEFAULT_LLM_TIMEOUT_MS = 30_000;
export const DEFAULT_LLM_MAX_RETRIES = 2;

export interface LlmClientConfig {
  /** Base URL of the API, e.g. https://api.openai.com/v1; /chat/completions is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Further attempts after the first on retryable failures. */
  maxRetries?: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The endpoint failed. `message` names only the kind of failure; `detail` is the endpoint's own text. */
export class LlmCallError extends Error {
  override readonly name = 'LlmCallError';
  constructor(
    message: string,
    readonly status?: number,
    readonly detail?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class LlmClient {
  readonly model: string;
  readonly timeoutMs: number;
  private readonly openai: OpenAI;

  constructor(config: LlmClientConfig) {
    this.model = config.model;
    this.timeoutMs = config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    this.openai = new OpenAI({
      baseURL: config.baseUrl.replace(/\/+$/, ''),
      // Endpoints without keys (local servers) get no Authorization header at all.
      apiKey: config.apiKey ?? 'no-key',
      ...(config.apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
      timeout: this.timeoutMs,
      maxRetries: config.maxRetries ?? DEFAULT_LLM_MAX_RETRIES,
    });
  }

  /** The first choice's message content; `json` asks for a JSON object reply (response_format). */
  async complete(messages: ChatMessage[], options: { json?: boolean } = {}): Promise<string> {
    let content: string | null | undefined;
    try {
      const reply = await this.openai.chat.completions.create({
        model: this.model,
        temperature: 0,
        messages,
        ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
      });
      content = (reply as { choices?: { message?: { content?: string | null } }[] }).choices?.[0]?.message?.content;
    } catch (error) {
      throw toCallError(error, this.timeoutMs);
    }
    if (typeof content !== 'string' || content.trim() === '') {
      throw new LlmCallError('the reply has no message content (choices[0].message.content)');
    }
    return content;
  }
}

function toCallError(error: unknown, timeoutMs: number): LlmCallError {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmCallError(`no reply within ${timeoutMs} ms`, undefined, undefined, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new LlmCallError('the endpoint is unreachable', undefined, error.message, { cause: error });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return new LlmCallError(
      `HTTP ${error.status}`,
      error.status,
      JSON.stringify(error.error ?? error.message).slice(0, 500),
      { cause: error },
    );
  }
  if (error instanceof SyntaxError) {
    return new LlmCallError('the reply is not JSON', undefined, error.message, { cause: error });
  }
  return new LlmCallError(
    'the reply could not be read',
    undefined,
    error instanceof Error ? error.message : String(error),
    { cause: error },
  );
}
