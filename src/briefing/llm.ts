// The briefing writer backed by an OpenAI-compatible chat endpoint. It is handed exactly the
// evidence the built-in writer would use, selected and hashed by the same functions, so the spec
// and hashes do not depend on which writer ran; only the prose does. Failures are thrown, never
// papered over with the built-in writer: the caller decides what a failed LLM means. The transport is
// the shared client in src/llm/client.ts.
import { LlmCallError, LlmClient, type LlmClientConfig } from '../llm/client.js';
import { BUILTIN_BRIEFING_MODEL } from './builtin.js';
import { assembleBriefing, prepareEvidence } from './envelope.js';
import { stripMarkdown } from './plain.js';
import { renderBriefing } from './render.js';
import { memoryDay } from './select.js';
import type { Briefing, BriefingInput, BriefingMemory, BriefingWriter } from './types.js';

export { DEFAULT_LLM_TIMEOUT_MS } from '../llm/client.js';

export type LlmBriefingOptions = LlmClientConfig;

/**
 * The LLM endpoint could not be reached, timed out, answered with an error, or sent no briefing. The
 * message names the kind of failure only (it reaches API clients as a 502); never the endpoint's text.
 */
export class LlmEndpointError extends Error {
  override readonly name = 'LlmEndpointError';
  constructor(
    reason: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`LLM endpoint failed: ${reason}`, options);
  }
}

const INSTRUCTIONS = [
  'You write operational situation briefings from the memories of a knowledge graph.',
  'Use only the evidence you are given; do not add facts, names or dates it does not contain.',
  'Answer in Markdown only, not wrapped in a code fence:',
  '"# Situation briefing: <query>", then a one-paragraph summary ' +
    '(how many memories of each kind, and their date range),',
  'then these sections in this order, each only if it has evidence: ' +
    '"## Decisions", "## Lessons", "## Preferences", "## Facts", "## Signals", "## Observations",',
  'each a bullet list "- <content> (<date>)",',
  'then "## What to do next" with concrete next steps that follow from the evidence.',
].join(' ');

function evidenceMessage(query: string, selected: readonly BriefingMemory[]): string {
  return JSON.stringify({
    query,
    evidence: selected.map((m) => ({
      id: m.id,
      kind: m.kind,
      name: m.name,
      content: m.content,
      date: memoryDay(m),
      subject: m.subject ?? null,
      object: m.object ?? null,
    })),
  });
}

/** Models sometimes wrap the whole answer in ```markdown fences despite being asked not to. */
function unwrapFence(reply: string): string {
  const fenced = /^```(?:markdown|md)?[ \t]*\n([\s\S]*?)\n```$/.exec(reply.trim());
  return (fenced?.[1] ?? reply).trim();
}

export class LlmBriefingWriter implements BriefingWriter {
  readonly model: string;
  private readonly client: LlmClient;

  constructor(options: LlmBriefingOptions) {
    this.model = options.model;
    this.client = new LlmClient(options);
  }

  async write(input: BriefingInput): Promise<Briefing> {
    const evidence = prepareEvidence(input);
    if (evidence.selected.length === 0) {
      // Nothing to brief on: a model given no evidence can only invent, so the fixed wording is used
      // and the briefing says truthfully that the built-in writer produced it.
      const rendered = renderBriefing(input.query, evidence.selected, input.candidates.length);
      return assembleBriefing(input, evidence, { ...rendered, model: BUILTIN_BRIEFING_MODEL });
    }
    const markdown = unwrapFence(await this.complete(evidenceMessage(input.query, evidence.selected)));
    return assembleBriefing(input, evidence, { markdown, text: stripMarkdown(markdown), model: this.model });
  }

  private async complete(evidence: string): Promise<string> {
    try {
      return await this.client.complete([
        { role: 'system', content: INSTRUCTIONS },
        { role: 'user', content: evidence },
      ]);
    } catch (error) {
      if (error instanceof LlmCallError) throw new LlmEndpointError(error.message, error.status, { cause: error });
      throw error;
    }
  }
}
