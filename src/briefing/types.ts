// The memory briefing returned by POST /v1/memories/synthesize, and the writer contract that both
// the built-in (offline) writer and the LLM writer fulfil, so the route does not care which it has.

export type MemoryKind = 'preference' | 'decision' | 'fact' | 'lesson' | 'observation' | 'signal';

export interface BriefingMemory {
  id: string;
  kind: MemoryKind;
  name: string;
  content: string;
  /** ISO date-time the memory was recorded. */
  created_at: string;
  /** ISO date (or date-time) the thing described was observed, when known; shown instead of created_at. */
  date_observed?: string;
  subject?: string | null;
  object?: string | null;
  /** Retrieval rank score, higher is better. A memory without one ranks below every scored memory. */
  score?: number;
}

export interface BriefingInput {
  query: string;
  projectId: string;
  /** The retrieved memories the evidence is selected from. */
  candidates: BriefingMemory[];
  /** How many memories the evidence may hold; default 12. */
  maxEvidence?: number;
  /** The clock, passed in so that a briefing is reproducible; becomes spec.generated_at. */
  now: Date;
}

export interface BriefingHashes {
  /** 64-char lowercase hex SHA-256 of the evidence shape (ids and kinds in order). */
  structural: string;
  /** 64-char lowercase hex SHA-256 of what was asked (normalized query, purpose, type, limit). */
  operational: string;
  /** 64-char lowercase hex SHA-256 of what the evidence says (ids and contents). */
  denotative: string;
}

export type BriefingSpec = {
  purpose: 'operational-briefing';
  query: string;
  output_type: 'SituationBriefing';
  /** The evidence set, in selection order. */
  selected_memory_ids: string[];
  hashes: BriefingHashes;
  /** ISO date-time. */
  generated_at: string;
  /** How many candidates the evidence was selected from. */
  candidate_count: number;
};

export interface Briefing {
  /** The briefing as plain prose paragraphs. */
  text: string;
  /** The same briefing as Markdown. */
  markdown: string;
  format: 'markdown';
  project_id: string;
  spec: BriefingSpec;
  sources: [];
  /** Name of the model that wrote the briefing. */
  model: string;
  persisted: false;
}

export interface BriefingWriter {
  readonly model: string;
  write(input: BriefingInput): Promise<Briefing>;
}
