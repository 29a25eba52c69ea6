// Saved context packs: compiling stays read-only; saving one is a governed write (a delta of origin
// "context") that stores a :Knowledge:ContextPack with flat properties, -[:SELECTED {ref, section,
// rank}]-> each memory, chunk and entity the pack included, and -[:COMPILED_FROM]-> the saved slice
// it came from. A deleted item takes its SELECTED link with it; the pack keeps its hashes.
import type { Answer } from '../http/answer.js';
import type { savedPackSchema } from './schemas.js';
import type { Graph } from '../db/graph.js';
import { DeltaDraft } from '../deltas/draft.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { notFound } from '../errors/catalogue.js';
import type { ContextPack } from '../context/compile.js';

export const CONTEXT_ORIGIN = 'context';
export const CONTEXT_PACK_LABEL = 'ContextPack';

/** Stages the pack node and its links into a new draft; returns the draft and the saved pack's id. */
export function packDraft(pack: ContextPack, planes: readonly string[]): { draft: DeltaDraft; id: string } {
  const draft = new DeltaDraft(CONTEXT_ORIGIN, `context pack: ${pack.pack_id}`);
  const items = pack.sections.flatMap((s) => s.items.map((item, i) => ({ item, section: s.plane, rank: i + 1 })));
  const id = draft.createNode([CONTEXT_PACK_LABEL], {
    pack_id: pack.pack_id,
    slice_id: pack.slice?.id ?? null,
    slice_version: pack.slice?.version ?? null,
    query: pack.query,
    as_of: pack.as_of,
    known_at: pack.known_at ?? null,
    format: pack.format,
    planes: [...planes],
    max_tokens: pack.budget.max_tokens,
    used_tokens: pack.budget.used_tokens,
    tokenizer: pack.budget.tokenizer,
    hash_structural: pack.hashes.structural,
    hash_operational: pack.hashes.operational,
    hash_denotative: pack.hashes.denotative,
    candidate_count: pack.candidate_count,
    truncated: pack.truncated,
    item_count: items.length,
  });
  for (const { item, section, rank } of items)
    draft.createRelationship(id, 'SELECTED', item.id, { ref: item.ref, section, rank });
  if (pack.slice) draft.createRelationship(id, 'COMPILED_FROM', pack.slice.id);
  return { draft, id };
}

export async function savePack(
  graph: Graph,
  actor: Actor,
  pack: ContextPack,
  planes: readonly string[],
  apply: boolean,
): Promise<WriteOutcome & { id: string }> {
  const { draft, id } = packDraft(pack, planes);
  return { ...(await writeGoverned(graph, draft, actor, apply)), id };
}

type SavedPack = Answer<typeof savedPackSchema>;

/** A :ContextPack node's flat properties, as packs/get returns them (declared, not checked). */
interface PackProps {
  id: string;
  pack_id: string;
  project_id: string;
  slice_id?: string | null;
  slice_version?: number | null;
  query?: string | null;
  as_of?: string | null;
  known_at?: string | null;
  format: SavedPack['format'];
  max_tokens: number;
  used_tokens: number;
  tokenizer: NonNullable<SavedPack['budget']['tokenizer']>;
  hash_structural: string;
  hash_operational: string;
  hash_denotative: string;
  candidate_count: number;
  truncated?: boolean | null;
  item_count: number;
  created_at: string;
  delta_id: string;
}

/** A row of packs/get: the pack and its SELECTED links still present. */
export interface PackRow {
  pack: PackProps;
  selected: SavedPack['selected'] | null;
}

/** A stored pack as the API shows it: its summary and the SELECTED links still present. */
export function savedPackView(row: PackRow): SavedPack {
  const p = row.pack;
  const sliceId = p.slice_id ?? null;
  return {
    id: p.id,
    pack_id: p.pack_id,
    project_id: p.project_id,
    slice: sliceId ? { id: sliceId, version: p.slice_version ?? 0 } : null,
    query: p.query ?? '',
    as_of: p.as_of ?? null,
    ...(p.known_at ? { known_at: p.known_at } : {}),
    format: p.format,
    budget: { max_tokens: p.max_tokens, used_tokens: p.used_tokens, tokenizer: p.tokenizer },
    hashes: { structural: p.hash_structural, operational: p.hash_operational, denotative: p.hash_denotative },
    candidate_count: p.candidate_count,
    truncated: p.truncated === true,
    item_count: p.item_count,
    selected: (row.selected ?? []).map((s) => ({
      id: s.id,
      type: s.type,
      ref: s.ref,
      section: s.section,
      rank: s.rank,
    })),
    created_at: p.created_at,
    delta_id: p.delta_id,
  };
}

/** A committed pack of the project, or 404 (staged, unknown or another project's). */
export async function committedPack(graph: Graph, actor: Actor, id: string): Promise<SavedPack> {
  const row = await graph.read((tx) => tx.one<PackRow>('packs/get', { id, project_id: actor.projectId }));
  if (!row) throw notFound('context pack', id);
  return savedPackView(row);
}

/** A page of the project's committed packs, newest first (limit + 1 rows, for the keyset page). */
export async function listPacks(
  graph: Graph,
  projectId: string,
  page: { after: { c: string; i: string } | null; limit: number },
): Promise<PackRow[]> {
  return graph.read((tx) =>
    tx.run<PackRow>('packs/list', {
      project_id: projectId,
      limit: page.limit + 1,
      after_created: page.after?.c ?? null,
      after_id: page.after?.i ?? null,
    }),
  );
}
