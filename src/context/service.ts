// Context operations on a saved or inline slice: resolve the slice (404 unknown or another
// project's, 409 staged naming its delta), compile it, and brief on the pack.
import type { Graph } from '../db/graph.js';
import { conflict, invalid, notFound } from '../errors/catalogue.js';
import type { BriefingMemory, BriefingWriter, MemoryKind } from '../briefing/types.js';
import { MEMORY_KINDS } from '../memories/schemas.js';
import { normalizeDefinition, type DefinitionInput, type SliceDefinition } from '../slices/definition.js';
import { loadSlice } from '../slices/store.js';
import { compilePack, type Compiled } from './compile.js';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { knownAtInstant } from '../search/schemas.js';

export interface CompileBody {
  query?: string;
  as_of?: string;
  known_at?: string;
  max_tokens?: number;
  explain?: boolean;
}

export interface ResolvedSlice {
  def: SliceDefinition;
  slice: { id: string; name: string; version: number } | null;
}

/** A committed slice of the project, ready to compile. */
export async function savedSlice(graph: Graph, projectId: string, id: string): Promise<ResolvedSlice> {
  const slice = await loadSlice(graph, id, projectId);
  if (!slice) throw notFound('slice', id);
  if (slice.pending) {
    throw conflict(
      `Slice ${id} is staged in delta ${String(slice.delta_id)} and cannot be compiled until that delta is applied.`,
      { slice_id: id, delta_id: slice.delta_id },
    );
  }
  return { def: slice.definition, slice: { id: slice.id, name: slice.name, version: slice.version } };
}

/** The slice a /v1/context request names: inline (checked like a saved one) or by id. */
export async function requestedSlice(
  graph: Graph,
  projectId: string,
  body: { slice?: DefinitionInput; slice_id?: string },
): Promise<ResolvedSlice> {
  if (body.slice) return { def: normalizeDefinition(body.slice, '/body/slice'), slice: null };
  return savedSlice(graph, projectId, body.slice_id!);
}

export function compileSlice(
  deps: GraphDeps & EmbedderDeps,
  projectId: string,
  resolved: ResolvedSlice,
  body: CompileBody,
): Promise<Compiled> {
  if (body.as_of !== undefined && Number.isNaN(Date.parse(body.as_of)))
    throw invalid('/body/as_of', 'must be a date-time');
  return compilePack(deps, {
    projectId,
    def: resolved.def,
    slice: resolved.slice,
    query: body.query,
    asOf: body.as_of,
    ...(body.known_at !== undefined ? { knownAt: knownAtInstant(body.known_at, '/body/known_at')! } : {}),
    maxTokens: body.max_tokens,
    explain: body.explain,
  });
}

/**
 * The pack's items as briefing evidence, in pack order: memories keep their kind; entities are
 * briefed as facts and document chunks as observations.
 */
export function packEvidence(compiled: Compiled): BriefingMemory[] {
  const count = compiled.chosen.length;
  return compiled.chosen.map((c, i) => {
    const kind: MemoryKind =
      c.type === 'memory' && (MEMORY_KINDS as readonly string[]).includes(c.kind ?? '')
        ? (c.kind as MemoryKind)
        : c.type === 'entity'
          ? 'fact'
          : 'observation';
    const content = c.type === 'entity' ? `${c.name} (${c.label})${c.text.trim() ? `: ${c.text}` : ''}` : c.text;
    // Pack order is the evidence order: scores descend with it.
    return {
      id: c.id,
      kind,
      name: c.name,
      content,
      created_at: c.created_at,
      ...(c.date ? { date_observed: c.date } : {}),
      score: count - i,
    };
  });
}

export async function briefPack(
  writer: BriefingWriter,
  projectId: string,
  compiled: Compiled,
): Promise<Record<string, unknown>> {
  const candidates = packEvidence(compiled);
  const briefing = await writer.write({
    query: compiled.pack.query,
    projectId,
    candidates,
    maxEvidence: candidates.length,
    now: new Date(),
  });
  return { ...briefing, pack: compiled.pack };
}
