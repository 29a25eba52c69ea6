// Gathers a compile's candidates in one read transaction: per plane, the full-text hits of the
// query (or, with no query, the most recent items), plus the subject's neighbourhood within `hops`
// and the memories linked to it. Only committed items; memories only while recallable.
import type { Row, Tx } from '../db/graph.js';
import { luceneQuery } from '../db/tenant.js';
import { normalizeName } from '../entities/normalize.js';
import { subtractDuration, parseDuration } from '../slices/duration.js';
import type { Plane, SliceDefinition } from '../slices/definition.js';

export type CandidateSource = 'query' | 'recent' | 'linked' | 'neighbourhood';

export interface Candidate {
  id: string;
  plane: Plane;
  type: 'memory' | 'chunk' | 'entity';
  label: string;
  name: string;
  text: string;
  created_at: string;
  /** memory kind; null elsewhere */
  kind: string | null;
  /** memory date_observed (YYYY-MM-DD) */
  date: string | null;
  /** chunk position in its document */
  chunk_index: number | null;
  /** distance from the subject, for neighbourhood entities and linked memories */
  hops: number | null;
  /** rank (from 1) of the candidate in each source that found it */
  sources: { source: CandidateSource; rank: number }[];
}

export interface GatherRequest {
  projectId: string;
  def: SliceDefinition;
  query: string | null;
  asOf: string | null;
  now: string;
}

export interface Gathered {
  candidates: Map<Plane, Candidate[]>;
  subject: { id: string; name: string } | null;
}

/** Candidates taken per source: enough to fill the budget with short items, bounded for latency. */
export function perSourceLimit(maxTokens: number): number {
  return Math.min(1000, 40 + Math.ceil(maxTokens / 20));
}

/** The window's bounds as ISO date-times: a rolling window ends at as_of, else at the compile. */
export function windowBounds(
  def: SliceDefinition,
  asOf: string | null,
  now: string,
): { from: string | null; to: string | null; field: string } {
  const w = def.time_window;
  if (!w) return { from: null, to: null, field: 'created_at' };
  if ('last' in w) {
    const end = asOf ?? now;
    return { from: subtractDuration(new Date(end), parseDuration(w.last)!).toISOString(), to: end, field: w.field };
  }
  return { from: w.from ?? null, to: w.to ?? null, field: w.field };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

function candidate(plane: Plane, row: Row, source: CandidateSource, rank: number): Candidate {
  const type = plane === 'memory' ? 'memory' : plane === 'document' ? 'chunk' : 'entity';
  const chunkIndex = typeof row.chunk_index === 'number' ? row.chunk_index : null;
  const name = plane === 'document' ? `${str(row.title) || 'Untitled'} #${(chunkIndex ?? 0) + 1}` : str(row.name);
  return {
    id: str(row.id),
    plane,
    type,
    label: plane === 'memory' ? 'Memory' : plane === 'document' ? 'Chunk' : str(row.label) || 'Entity',
    name,
    text: str(row.text),
    created_at: str(row.created_at),
    kind: row.kind === undefined ? null : (row.kind as string | null),
    date: typeof row.date_observed === 'string' ? row.date_observed : null,
    chunk_index: chunkIndex,
    hops: typeof row.hops === 'number' ? row.hops : null,
    sources: [{ source, rank }],
  };
}

/** Adds a source's rows to the plane's candidates, merging items several sources found. */
function collect(into: Map<string, Candidate>, plane: Plane, rows: Row[], source: CandidateSource): void {
  rows.forEach((row, i) => {
    const c = candidate(plane, row, source, i + 1);
    const known = into.get(c.id);
    if (!known) into.set(c.id, c);
    else {
      known.sources.push({ source, rank: i + 1 });
      if (c.hops !== null && (known.hops === null || c.hops < known.hops)) known.hops = c.hops;
    }
  });
}

export async function gatherCandidates(tx: Tx, req: GatherRequest): Promise<Gathered> {
  const { def, projectId } = req;
  const limit = perSourceLimit(def.budget.max_tokens);
  const lucene = req.query ? luceneQuery(req.query, projectId) : null;
  const window = windowBounds(def, req.asOf, req.now);
  const base = {
    project_id: projectId,
    as_of: req.asOf,
    now: req.now,
    limit,
    lucene,
    from: window.from,
    to: window.to,
    window_field: window.field,
  };
  const f = def.filters;
  const memoryParams = { ...base, kinds: f.memory?.kinds ?? null };
  const documentParams = {
    ...base,
    document_ids: f.document?.document_ids ?? null,
    tags: f.document?.tags?.map(normalizeName) ?? null,
  };
  const entityParams = { ...base, types: f.entity?.types ?? null, shape_ids: f.entity?.shape_ids ?? null };
  const fetchCount = (filtered: boolean) => (filtered ? Math.min(limit * 20 + 200, 5000) : limit * 2 + 20);
  const source: CandidateSource = lucene ? 'query' : 'recent';
  const byPlane = new Map<Plane, Map<string, Candidate>>(def.planes.map((p) => [p, new Map()]));

  if (byPlane.has('memory')) {
    const filtered = memoryParams.kinds !== null || window.from !== null || window.to !== null || req.asOf !== null;
    const rows = await tx.run(lucene ? 'context/memories_search' : 'context/memories_recent', {
      ...memoryParams,
      candidates: fetchCount(filtered),
    });
    collect(byPlane.get('memory')!, 'memory', rows, source);
  }
  if (byPlane.has('document')) {
    const filtered =
      documentParams.document_ids !== null ||
      documentParams.tags !== null ||
      window.from !== null ||
      window.to !== null ||
      req.asOf !== null;
    const rows = await tx.run(lucene ? 'context/chunks_search' : 'context/chunks_recent', {
      ...documentParams,
      candidates: fetchCount(filtered),
    });
    collect(byPlane.get('document')!, 'document', rows, source);
  }
  if (byPlane.has('entity')) {
    const filtered = entityParams.types !== null || entityParams.shape_ids !== null || req.asOf !== null;
    const rows = await tx.run(lucene ? 'context/entities_search' : 'context/entities_recent', {
      ...entityParams,
      candidates: fetchCount(filtered),
    });
    collect(byPlane.get('entity')!, 'entity', rows, source);
  }

  let subject: Gathered['subject'] = null;
  if (def.subject) {
    const ref = def.subject;
    const row = await tx.one('context/subject', {
      project_id: projectId,
      id: 'id' in ref ? ref.id : null,
      normalized_name: 'name' in ref ? normalizeName(ref.name) : null,
      type: 'name' in ref ? (ref.type ?? null) : null,
    });
    if (row) subject = { id: str(row.id), name: str(row.name) };
  }
  if (subject) {
    // The neighbourhood is walked unfiltered for linking memories, then filtered for the entity plane.
    const around = await tx.run('context/neighbourhood', {
      ...base,
      types: null,
      shape_ids: null,
      subject_id: subject.id,
      hops: def.hops,
      relationship_types: def.relationship_types,
    });
    if (byPlane.has('entity')) {
      const kept =
        entityParams.types === null && entityParams.shape_ids === null
          ? around
          : await tx.run('context/neighbourhood', {
              ...entityParams,
              subject_id: subject.id,
              hops: def.hops,
              relationship_types: def.relationship_types,
            });
      collect(byPlane.get('entity')!, 'entity', kept, 'neighbourhood');
    }
    if (byPlane.has('memory') && around.length > 0) {
      const entities = around.map((r) => ({ id: str(r.id), hops: Number(r.hops) }));
      collect(
        byPlane.get('memory')!,
        'memory',
        await tx.run('context/linked_memories', { ...memoryParams, entities }),
        'linked',
      );
    }
  }
  const candidates = new Map<Plane, Candidate[]>();
  for (const [plane, found] of byPlane) candidates.set(plane, [...found.values()]);
  return { candidates, subject };
}
