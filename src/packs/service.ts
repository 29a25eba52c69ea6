// Saved context packs: compiling stays read-only; saving one is a governed write (a delta of origin
// "context") that stores a :Knowledge:ContextPack with flat properties, -[:SELECTED {ref, section,
// rank}]-> each memory, chunk and entity the pack included, and -[:COMPILED_FROM]-> the saved slice
// it came from. A deleted item takes its SELECTED link with it; the pack keeps its hashes.
import type { Graph } from '../db/graph.js';
import type { Plain } from '../db/values.js';
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

type Props = Record<string, Plain>;
const str = (v: Plain | undefined): string | null => (typeof v === 'string' ? v : null);
const num = (v: Plain | undefined): number => Number(v ?? 0);

/** A stored pack as the API shows it: its summary and the SELECTED links still present. */
export function savedPackView(row: Record<string, Plain>): Record<string, unknown> {
  const p = (row.pack ?? {}) as Props;
  const sliceId = str(p.slice_id);
  return {
    id: String(p.id),
    pack_id: String(p.pack_id),
    project_id: String(p.project_id),
    slice: sliceId ? { id: sliceId, version: num(p.slice_version) } : null,
    query: str(p.query) ?? '',
    as_of: str(p.as_of),
    ...(str(p.known_at) !== null ? { known_at: str(p.known_at) } : {}),
    format: String(p.format),
    budget: { max_tokens: num(p.max_tokens), used_tokens: num(p.used_tokens), tokenizer: String(p.tokenizer) },
    hashes: {
      structural: String(p.hash_structural),
      operational: String(p.hash_operational),
      denotative: String(p.hash_denotative),
    },
    candidate_count: num(p.candidate_count),
    truncated: p.truncated === true,
    item_count: num(p.item_count),
    selected: ((row.selected ?? []) as Props[]).map((s) => ({
      id: String(s.id),
      type: String(s.type),
      ref: String(s.ref),
      section: String(s.section),
      rank: num(s.rank),
    })),
    created_at: String(p.created_at),
    delta_id: String(p.delta_id),
  };
}

/** A committed pack of the project, or 404 (staged, unknown or another project's). */
export async function committedPack(graph: Graph, actor: Actor, id: string): Promise<Record<string, unknown>> {
  const row = await graph.read((tx) => tx.one('packs/get', { id, project_id: actor.projectId }));
  if (!row) throw notFound('context pack', id);
  return savedPackView(row);
}

/** A page of the project's committed packs, newest first (limit + 1 rows, for the keyset page). */
export async function listPacks(
  graph: Graph,
  projectId: string,
  page: { after: { c: string; i: string } | null; limit: number },
): Promise<Record<string, Plain>[]> {
  return graph.read((tx) =>
    tx.run('packs/list', {
      project_id: projectId,
      limit: page.limit + 1,
      after_created: page.after?.c ?? null,
      after_id: page.after?.i ?? null,
    }),
  );
}
