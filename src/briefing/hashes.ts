// The three briefing digests, so a client can tell whether two briefings rest on the same evidence
// (structural), answer the same request (operational) and say the same things (denotative).
//
// Canonical JSON and the hash as src/shared/canonicalJson.ts defines them.
//
//   structural  = sha256(canonical({ output_type: "SituationBriefing", purpose: "operational-briefing",
//                                    selected: [{ id, kind }, ...] }))          -- the shape of the evidence
//   operational = sha256(canonical({ purpose: "operational-briefing", query: normalized query,
//                                    output_type: "SituationBriefing", max_evidence }))  -- what was asked
//   denotative  = sha256(canonical({ selected: [{ id, content }, ...] }))       -- what the evidence says
//
// "selected" lists the evidence in selection order; content is the memory content exactly as
// stored, so the denotative digest changes whenever any selected memory's content changes. The
// normalized query is the query trimmed, with every whitespace run collapsed to one space, and
// lowercased. max_evidence is the limit in force (12 unless the request set one). No digest
// includes generated_at, so the same query and the same evidence give the same digests.
import { canonicalJson, sha256Hex } from '../shared/canonicalJson.js';
import type { BriefingHashes, BriefingMemory } from './types.js';

export { canonicalJson, sha256Hex };

export const BRIEFING_PURPOSE = 'operational-briefing';
export const BRIEFING_OUTPUT_TYPE = 'SituationBriefing';

/** The query as the operational digest sees it: trimmed, whitespace collapsed, lowercased. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function briefingHashes(
  query: string,
  selected: readonly BriefingMemory[],
  maxEvidence: number,
): BriefingHashes {
  return {
    structural: sha256Hex(
      canonicalJson({
        output_type: BRIEFING_OUTPUT_TYPE,
        purpose: BRIEFING_PURPOSE,
        selected: selected.map((memory) => ({ id: memory.id, kind: memory.kind })),
      }),
    ),
    operational: sha256Hex(
      canonicalJson({
        purpose: BRIEFING_PURPOSE,
        query: normalizeQuery(query),
        output_type: BRIEFING_OUTPUT_TYPE,
        max_evidence: maxEvidence,
      }),
    ),
    denotative: sha256Hex(
      canonicalJson({
        selected: selected.map((memory) => ({ id: memory.id, content: memory.content })),
      }),
    ),
  };
}
