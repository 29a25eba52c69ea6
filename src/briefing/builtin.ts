// The offline briefing writer: no network and no model, so synthesize works without an LLM and
// gives byte-identical output for the same query and evidence (only generated_at follows the clock).
import { assembleBriefing, prepareEvidence } from './envelope.js';
import { renderBriefing } from './render.js';
import type { Briefing, BriefingInput, BriefingWriter } from './types.js';

export const BUILTIN_BRIEFING_MODEL = 'gks-briefing-builtin/1';

export class BuiltinBriefingWriter implements BriefingWriter {
  readonly model = BUILTIN_BRIEFING_MODEL;

  async write(input: BriefingInput): Promise<Briefing> {
    const evidence = prepareEvidence(input);
    const rendered = renderBriefing(input.query, evidence.selected, input.candidates.length);
    return assembleBriefing(input, evidence, { ...rendered, model: this.model });
  }
}
