// The contract every extractor (built-in or LLM-backed) honours, so loops and routes can swap them
// without knowing which one produced a result.
import type { ShapeDef } from '../shapes/types.js';

export interface Mention {
  /** UTF-16 offsets into the input text, end exclusive: text.slice(start, end) === mention.text. */
  start: number;
  end: number;
  text: string;
}

export interface ExtractedEntity {
  key: string;
  /** Entity label from the shape. */
  type: string;
  name: string;
  normalized_name: string;
  properties: Record<string, string | number | boolean>;
  mentions: Mention[];
  /** 0..1 */
  confidence: number;
}

export interface ExtractedRelationship {
  type: string;
  from_key: string;
  to_key: string;
  /** The sentence the relationship was read from. */
  evidence: string;
  confidence: number;
}

/** Counts the loop quality is computed from (signals.ts); absent on hand-made results. */
export interface ExtractionSignals {
  /** Sentences holding a capitalised name or an extracted mention. */
  sentences_with_names: number;
  /** Sentences where at least one entity was extracted. */
  sentences_yielding: number;
  /** Capitalised names found in the text, and how many of them an entity mention covers. */
  names: number;
  names_typed: number;
  /**
   * Sentences without negation mentioning two entities whose types the shape relates, and how many yielded a
   * relationship between them.
   */
  relatable_sentences: number;
  related_sentences: number;
  /** Built-in only: how often a name's own words and its context agreed on its type (0..1). */
  agreement?: number;
}

export interface ExtractionResult {
  entities: ExtractedEntity[];
  relationships: ExtractedRelationship[];
  stats: { characters: number; sentences: number; signals?: ExtractionSignals };
}

export interface ExtractOptions {
  effort: 'agentic' | 'agentic_plus';
  /** Iteration number, 1-based; later passes may widen recall. */
  pass?: number;
  /** Called between blocks of a long text (the loop activity heartbeats there). */
  onProgress?: () => void;
}

export interface Extractor {
  readonly name: string;
  extract(text: string, shape: ShapeDef, options: ExtractOptions): Promise<ExtractionResult>;
}
