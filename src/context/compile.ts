// Compiles a slice into a context pack: gather candidates (concurrent reads), rank each plane,
// fit the budget, render, hash. Nothing here reads the clock into the pack: the same graph and the
// same request give the same bytes (only the response's request_id differs). The clock is used for
// two things only: forget_after (a forgotten memory never appears) and, when as_of is not given,
// the end of a rolling time window.
import type { SliceDefinition } from '../slices/definition.js';
import { fitSelection, renderFitted, selectItems, selectedEntityIds, type Chosen, type Fitted } from './budget.js';
import { gatherCandidates, type Candidate, type CandidateSource } from './candidates.js';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import type { Match, SearchMode } from '../search/hybrid.js';
import { embedAsked } from '../memories/speakers.js';
import type { Degraded } from '../search/meaning.js';
import { packHashes, type PackHashes } from './hashes.js';
import { rankCandidates, type Ranked } from './rank.js';
import { itemText, rendererFor } from './render.js';
import { TokenCounter } from './tokenCount.js';
import { edgesThen } from '../search/known.js';
import { isWhole } from '../graph/views.js';

export interface CompileRequest {
  projectId: string;
  def: SliceDefinition;
  slice: { id: string; name: string; version: number } | null;
  query?: string | undefined;
  asOf?: string | undefined;
  /** Transaction time (docs/facts.md): only what the graph knew then. */
  knownAt?: string | undefined;
  maxTokens?: number | undefined;
  explain?: boolean | undefined;
  /** hybrid (default): words and meaning; lexical: words only (src/search/hybrid.ts). */
  mode?: SearchMode | undefined;
}

export interface PackItem {
  ref: string;
  id: string;
  type: Candidate['type'];
  label: string;
  name: string;
  text: string;
  score: number;
  reason: string;
  tokens: number;
}

/** The pack, and the chosen items with what the briefing writer also needs (kind, dates). */
export interface Compiled {
  pack: ContextPack;
  chosen: Chosen[];
  /** ["semantic"] when meaning was wanted but unavailable (the pack then rests on words alone). */
  degraded: Degraded[];
}

export interface ContextPack {
  pack_id: string;
  slice: { id: string; version: number } | null;
  query: string;
  as_of: string | null;
  /** Present when asked: the compile read what the graph knew then (docs/facts.md). */
  known_at?: string;
  format: SliceDefinition['format'];
  budget: {
    max_tokens: number;
    used_tokens: number;
    tokenizer: SliceDefinition['budget']['tokenizer'];
    sections: Fitted['sections'];
  };
  sections: { plane: SliceDefinition['planes'][number]; items: PackItem[] }[];
  edges: Fitted['edges'];
  text: string;
  markdown: string;
  candidate_count: number;
  truncated: boolean;
  omitted: { count: number; by_reason: { duplicate: number; budget: number } };
  candidates?: Record<string, unknown>[];
  hashes: PackHashes;
}

/** Why the item is a candidate, from the sources that found it. */
export function reasonOf(c: Candidate): string {
  const hop = (n: number) => `${n} hop${n === 1 ? '' : 's'}`;
  return c.sources
    .map(({ source, rank, similarity, weight }) => {
      // A word hit on less than half of the question's words weighs nothing (docs/recall.md): said so.
      if (source === 'query')
        return weight === 0 ? `few of the query's words (#${rank})` : `matches the query (#${rank})`;
      if (source === 'meaning') return `close in meaning (#${rank}, similarity ${similarity?.toFixed(3) ?? '?'})`;
      if (source === 'recent') return `recent (#${rank})`;
      if (source === 'recall') return `recalled (#${rank})${recallWhy(c)}`;
      if (source === 'neighbourhood') return c.hops === 0 ? 'the subject' : `${hop(c.hops ?? 0)} from the subject`;
      return c.hops === 0 ? 'linked to the subject' : `linked to an entity ${hop(c.hops ?? 0)} from the subject`;
    })
    .join('; ');
}

export async function compilePack(deps: GraphDeps & EmbedderDeps, req: CompileRequest): Promise<Compiled> {
  const graph = deps.graph;
  const maxTokens = req.maxTokens ?? req.def.budget.max_tokens;
  const def: SliceDefinition = { ...req.def, budget: { ...req.def.budget, max_tokens: maxTokens } };
  const query = req.query ?? def.query ?? '';
  const asOf = req.asOf ? new Date(req.asOf).toISOString() : null;
  const now = new Date().toISOString();
  const knownAt = req.knownAt ?? null;
  const meta = { purpose: 'context:compile' };
  // Meaning reads the question without the names of those who speak in the project (src/memories/speakers.ts).
  const embedded = query.trim() ? await embedAsked(deps, req.projectId, query, req.mode ?? 'hybrid') : null;
  const question = embedded?.question ?? null;
  const gathered = await gatherCandidates(
    graph,
    {
      projectId: req.projectId,
      def,
      query: query.trim() || null,
      asOf,
      knownAt,
      now,
      question,
      asked: embedded?.asked ?? null,
      embedder: deps.embedder,
      recall: deps,
    },
    meta,
  );
  const ranked = rankCandidates(def.planes, gathered.candidates);
  const counter = new TokenCounter(def.budget.tokenizer);
  const renderer = rendererFor(def.format);
  const header = { query, slice: req.slice };
  // Items are chosen first; relationships only ever join two chosen entities, so only theirs are read.
  const selection = selectItems(def, ranked, renderer, counter, header, maxTokens);
  const entityIds = selectedEntityIds(selection);
  const edgeRows =
    entityIds.length > 1
      ? (
          await graph.readRows<{ source: string | null; type: string | null; target: string | null }>(
            'context/edges_among',
            { ids: entityIds, project_id: req.projectId, valid_at: asOf ?? knownAt ?? now },
            meta,
          )
        ).filter(isWhole)
      : [];
  const then = gathered.then;
  const knownEdges = then
    ? edgesThen(then, edgeRows, entityIds, asOf ?? knownAt ?? now, Number.MAX_SAFE_INTEGER).filter(
        (e) => entityIds.includes(String(e.source)) && entityIds.includes(String(e.target)),
      )
    : edgeRows;
  const edges = knownEdges.map((e) => ({ source: String(e.source), type: String(e.type), target: String(e.target) }));
  const fitted = fitSelection(selection, edges);
  const markdown =
    def.format === 'markdown'
      ? fitted.text
      : renderFitted(def, fitted, rendererFor('markdown'), counter, header, maxTokens);

  const all: Ranked[] = def.planes.flatMap((p) => ranked.get(p) ?? []);
  const duplicates = all.filter((c) => c.duplicateOf !== null).length;
  const sections = def.planes.map((plane) => ({
    plane,
    items: fitted.chosen.get(plane)!.map((c) => ({
      ref: c.ref,
      id: c.id,
      type: c.type,
      label: c.label,
      name: c.name,
      text: itemText(c.text),
      score: c.score,
      reason: reasonOf(c),
      tokens: c.tokens,
    })),
  }));
  const hashes = packHashes({ def, slice: req.slice, query, asOf, knownAt, maxTokens, sections, edges: fitted.edges });
  const pack: ContextPack = {
    pack_id: hashes.pack_id,
    slice: req.slice ? { id: req.slice.id, version: req.slice.version } : null,
    query,
    as_of: asOf,
    ...(knownAt !== null ? { known_at: knownAt } : {}),
    format: def.format,
    budget: {
      max_tokens: maxTokens,
      used_tokens: fitted.usedTokens,
      tokenizer: def.budget.tokenizer,
      sections: fitted.sections,
    },
    sections,
    edges: fitted.edges,
    text: fitted.text,
    markdown,
    candidate_count: all.length,
    truncated: fitted.overBudget > 0,
    omitted: { count: duplicates + fitted.overBudget, by_reason: { duplicate: duplicates, budget: fitted.overBudget } },
    hashes: hashes.digests,
  };
  if (req.explain) pack.candidates = explainCandidates(all, fitted);
  return { pack, chosen: def.planes.flatMap((p) => fitted.chosen.get(p)!), degraded: question?.degraded ?? [] };
}

/** Every candidate, in plane then rank order, with whether it made it into the context and why. */
function explainCandidates(all: Ranked[], fitted: Fitted): Record<string, unknown>[] {
  const refs = new Map<string, string>();
  for (const items of fitted.chosen.values()) for (const c of items) refs.set(c.id, c.ref);
  return all.map((c) => {
    const ref = refs.get(c.id) ?? null;
    const omitted = ref ? null : c.duplicateOf !== null ? 'duplicate' : 'budget';
    const why =
      omitted === 'duplicate'
        ? `duplicate of ${refs.get(c.duplicateOf!) ?? c.duplicateOf!}`
        : omitted === 'budget'
          ? 'did not fit the budget'
          : 'in context';
    return {
      id: c.id,
      plane: c.plane,
      type: c.type,
      label: c.label,
      name: c.name,
      rank: c.rank,
      score: c.score,
      in_context: ref !== null,
      ref,
      omitted_reason: omitted,
      reason: `${reasonOf(c)}; ${why}`,
      match: matchOf(c),
    };
  });
}

/**
 * Which of memory recall's channels ranked a recalled memory, in the words the other sources use:
 * ": close in meaning (#1, similarity 0.871); matches the query (#2); in an episode that matches (#4)".
 */
function recallWhy(c: Candidate): string {
  const m = c.recall;
  if (!m) return '';
  const parts = [
    m.semantic_rank !== null
      ? `close in meaning (#${m.semantic_rank}, similarity ${m.similarity?.toFixed(3) ?? '?'})`
      : null,
    m.lexical_rank !== null ? `matches the query (#${m.lexical_rank})` : null,
    m.context_rank ? `close in meaning with the memory before it (#${m.context_rank})` : null,
    m.episode_rank ? `in an episode that matches (#${m.episode_rank})` : null,
    m.graph_rank !== null ? `linked to what the query names (#${m.graph_rank})` : null,
    m.time_rank ? `observed when the query says (#${m.time_rank})` : null,
    m.rare && m.rare.length > 0 ? `holds the rare words ${m.rare.join(', ')}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? `: ${parts.join('; ')}` : '';
}

/** Why a candidate is there, in the `match` form search results use (src/search/hybrid.ts). */
export function matchOf(c: Ranked): Match {
  // A memory recall ranked says what recall said of it, and the compile's own score.
  if (c.recall) {
    const linked = c.sources.find((s) => s.source === 'linked')?.rank;
    return { ...c.recall, graph_rank: c.recall.graph_rank ?? linked ?? null, exact: c.exact, score: c.score };
  }
  const rankOf = (...sources: CandidateSource[]) => c.sources.find((s) => sources.includes(s.source))?.rank ?? null;
  const similarity = c.sources.find((s) => s.source === 'meaning')?.similarity;
  return {
    lexical_rank: rankOf('query'),
    semantic_rank: rankOf('meaning'),
    similarity: similarity === undefined ? null : Math.round(similarity * 1e4) / 1e4,
    graph_rank: rankOf('neighbourhood', 'linked'),
    exact: c.exact,
    score: c.score,
  };
}
