// The three context-pack digests, computed like the memory briefing's (src/briefing/hashes.ts:
// canonical JSON with sorted keys, UTF-8, SHA-256, 64 lowercase hex characters), and no clock in any:
//
//   structural  = sha256(canonical({ output_type: "ContextPack", format,
//                                    sections: [{ plane, items: [{ id, type }] }], edges: [[source, type, target]] }))
//   operational = sha256(canonical({ purpose: "context-pack", slice: { id, version } | null,
//                                    definition (the normalized slice definition in force), query: normalized,
//                                    as_of, known_at (only when given), max_tokens, tokenizer }))
//   denotative  = sha256(canonical({ items: [{ id, text }], edges: [[source, type, target]] }))
//
// Items are listed in pack order (plane order, then rank), text as rendered. pack_id is
// "ctx_" + the first 32 hex characters of sha256(canonical({ structural, operational, denotative })),
// so two packs with the same id hold the same items, asked the same way.
import { normalizeQuery } from '../briefing/hashes.js';
import { canonicalJson, sha256Hex, type Json } from '../shared/canonicalJson.js';
import type { SliceDefinition } from '../slices/definition.js';

export interface PackHashes {
  structural: string;
  operational: string;
  denotative: string;
}

/** Plain JSON data (parsed definitions, string records) as canonicalJson's input type. */
const json = (value: unknown): Json => value as Json; // the values passed are JSON-safe by construction

export interface HashInput {
  def: SliceDefinition;
  slice: { id: string; version: number } | null;
  query: string;
  asOf: string | null;
  /** Transaction time; counted only when given, so packs without it keep their ids. */
  knownAt?: string | null;
  maxTokens: number;
  sections: { plane: string; items: { id: string; type: string; text: string }[] }[];
  edges: { source: string; type: string; target: string }[];
}

export function packHashes(input: HashInput): { digests: PackHashes; pack_id: string } {
  const edges = input.edges.map((e) => [e.source, e.type, e.target]);
  const digests = {
    structural: sha256Hex(
      canonicalJson(
        json({
          output_type: 'ContextPack',
          format: input.def.format,
          sections: input.sections.map((s) => ({
            plane: s.plane,
            items: s.items.map((i) => ({ id: i.id, type: i.type })),
          })),
          edges,
        }),
      ),
    ),
    operational: sha256Hex(
      canonicalJson(
        json({
          purpose: 'context-pack',
          slice: input.slice ? { id: input.slice.id, version: input.slice.version } : null,
          definition: input.def,
          query: normalizeQuery(input.query),
          as_of: input.asOf,
          ...(input.knownAt ? { known_at: input.knownAt } : {}),
          max_tokens: input.maxTokens,
          tokenizer: input.def.budget.tokenizer,
        }),
      ),
    ),
    denotative: sha256Hex(
      canonicalJson(
        json({
          items: input.sections.flatMap((s) => s.items.map((i) => ({ id: i.id, text: i.text }))),
          edges,
        }),
      ),
    ),
  };
  return { digests, pack_id: `ctx_${sha256Hex(canonicalJson(digests)).slice(0, 32)}` };
}
