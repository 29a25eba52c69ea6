// What every writer shares: the evidence is selected and hashed once, the same way, and the
// response is assembled the same way, so writers differ only in the prose they produce.
import { BRIEFING_OUTPUT_TYPE, BRIEFING_PURPOSE, briefingHashes } from './hashes.js';
import { DEFAULT_MAX_EVIDENCE, selectEvidence } from './select.js';
import type { Briefing, BriefingHashes, BriefingInput, BriefingMemory } from './types.js';

export interface PreparedEvidence {
  selected: BriefingMemory[];
  hashes: BriefingHashes;
  maxEvidence: number;
}

export function prepareEvidence(input: BriefingInput): PreparedEvidence {
  const maxEvidence = input.maxEvidence ?? DEFAULT_MAX_EVIDENCE;
  const selected = selectEvidence(input.candidates, maxEvidence);
  return { selected, hashes: briefingHashes(input.query, selected, maxEvidence), maxEvidence };
}

export function assembleBriefing(
  input: BriefingInput,
  evidence: PreparedEvidence,
  written: { markdown: string; text: string; model: string },
): Briefing {
  return {
    text: written.text,
    markdown: written.markdown,
    format: 'markdown',
    project_id: input.projectId,
    spec: {
      purpose: BRIEFING_PURPOSE,
      query: input.query,
      output_type: BRIEFING_OUTPUT_TYPE,
      selected_memory_ids: evidence.selected.map((memory) => memory.id),
      hashes: evidence.hashes,
      generated_at: input.now.toISOString(),
      candidate_count: input.candidates.length,
    },
    sources: [],
    model: written.model,
    persisted: false,
  };
}
