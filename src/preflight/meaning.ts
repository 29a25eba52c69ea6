// The duplicates check by meaning (docs/recall.md, "Near duplicates by meaning"): a memory the delta
// creates that says nearly what a committed memory of the project says, or what another new memory of
// the same delta says, in other words (a warning); and a new entity whose vector is near a committed
// entity of the same type, proposed as possibly the same one (info: a proposal, never a merge; this
// is how extraction's entity resolution, which matches by type and normalized name, gains meaning).
// Staged nodes have no vector yet (the worker embeds what is applied), so the audit embeds them as
// passages, outside any transaction and bounded like a search; while the engine is down, off or slow
// the audit answers without these findings and says `degraded: ["semantic"]`. Warnings and info only:
// they never block an apply, so the apply guard (inside the apply's write transaction) skips them.
import type { Graph } from '../db/graph.js';
import { readDeltaNodes, readNear } from './meaningReads.js';
import { EmbeddingsUnavailableError, type Embedder, type EmbedderDeps } from '../embeddings/model.js';
import { memoryText } from '../embeddings/text.js';
import { nodeText } from '../embeddings/worker.js';
import { cosine, type Degraded } from '../search/meaning.js';
import type { Actor } from '../deltas/service.js';
import type { Finding } from './checks.js';

/**
 * How similar (cosine) two memories must be to be called near-duplicates. Measured with the default
 * multilingual-e5-small on memories as they are embedded (name, then content): the same fact in other
 * words gave 0.94–0.98 ("Salaries are paid by Acme Payroll on the 25th" / "Acme Payroll pays our wages
 * on the 25th": 0.983); related but different facts of one subject 0.87–0.953 ("The Berlin office
 * closes at 7 pm" / "opens at 8 am": 0.953, "Ada prefers green tea" / "black coffee": 0.934). A warning
 * asks a reviewer to look at every delta it is raised on, so the threshold sits above every different
 * fact measured, not between the means: 0.96 (it misses the tersest restatements; the exact checks
 * still run). Models other than e5 spread cosines wider and lower; 0.9 is their unmeasured starting
 * point. GKS_NEAR_DUPLICATE_SIMILARITY overrides both.
 */
export function nearDuplicateThreshold(modelId: string, env: NodeJS.ProcessEnv = process.env): number {
  return similarityThreshold('GKS_NEAR_DUPLICATE_SIMILARITY', modelId, env, 0.96, 0.9);
}

/** The variable's value when set (a number in (0, 1], else an error), or the model's default (e5 or another). */
function similarityThreshold(name: string, modelId: string, env: NodeJS.ProcessEnv, e5: number, other: number): number {
  const set = env[name];
  if (set !== undefined && set.trim() !== '') {
    const value = Number(set);
    if (Number.isFinite(value) && value > 0 && value <= 1) return value;
    throw new Error(`${name} must be a number in (0, 1]; got ${JSON.stringify(set)}`);
  }
  return /e5/i.test(modelId) ? e5 : other;
}

/**
 * How similar an entity (name, type and short description) must be to a committed one of the same type
 * to be proposed as the same. Short names embed close together in e5: "Acme Payroll" / "Acme Payroll
 * Inc." 0.985, "Maria Lopez" / "María López" 0.978, while "Acme Payroll" / "Acme Logistics" gave 0.964
 * and "Tom Becker" / "Tom Baker" 0.959 (and "Mario Lopez", a different person or a typo, 0.978: a
 * reviewer decides). The threshold sits above the different names measured: 0.97 for e5, 0.92 for
 * other models (unmeasured). GKS_NEAR_ENTITY_SIMILARITY overrides both.
 */
export function nearEntityThreshold(modelId: string, env: NodeJS.ProcessEnv = process.env): number {
  return similarityThreshold('GKS_NEAR_ENTITY_SIMILARITY', modelId, env, 0.97, 0.92);
}

const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}_.:\-/]*[\p{L}\p{N}])?/gu;

/**
 * The things a memory names: identifiers (a token with a digit, an underscore or an inner capital,
 * as search's exact-identifier rule: versions, keys, codes, amounts) and capitalised words that do not
 * open a sentence (names: "Ada knows Alpha"). Lower-cased.
 */
export function namedTokens(text: string): Set<string> {
  const named = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?;:])\s+|\n+/)) {
    const words = sentence.match(WORD) ?? [];
    words.forEach((word, i) => {
      const identifier = /\p{N}/u.test(word) || word.includes('_') || /\p{Ll}\p{Lu}/u.test(word);
      const name = i > 0 && /^\p{Lu}/u.test(word);
      if (identifier || name) named.add(word.toLowerCase());
    });
  }
  return named;
}

/**
 * Whether each text names only what the other holds too (case aside): "The build uses Node 20." and
 * "… Node 22." mean nearly the same to an embedding model but state different facts, as do "Ada knows
 * Alpha." and "Ada knows Beta."; a restatement keeps the names and numbers it restates. Memories that
 * name different things are never near-duplicates, however close their vectors (the same principle
 * that keeps an exact identifier first in search).
 */
export function sameNamedThings(a: string, b: string): boolean {
  const words = (t: string) => new Set((t.match(WORD) ?? []).map((w) => w.toLowerCase()));
  const inA = words(a);
  const inB = words(b);
  for (const n of namedTokens(a)) if (!inB.has(n)) return false;
  for (const n of namedTokens(b)) if (!inA.has(n)) return false;
  return true;
}

/**
 * Whether two texts hold the same words with one changed in place: the same words in another order
 * ("Use spaces, not tabs." / "Use tabs, not spaces.") or one word swapped for another that is not a
 * form of it ("Ada prefers green tea." / "… black tea.", but not "Monday" / "Mondays"). An embedding
 * model puts such pairs as close as restatements, yet they state a changed fact, not the same one;
 * a restatement says it in other words. Such pairs are never near-duplicates (docs/recall.md).
 */
export function changedInPlace(a: string, b: string): boolean {
  const wa = (a.match(WORD) ?? []).map((w) => w.toLowerCase());
  const wb = (b.match(WORD) ?? []).map((w) => w.toLowerCase());
  if (wa.length !== wb.length || wa.length === 0) return false;
  const differing = wa.map((w, i) => [w, wb[i]!] as const).filter(([x, y]) => x !== y);
  if (differing.length === 0) return false;
  const sorted = (w: string[]) => [...w].sort().join(' ');
  if (sorted(wa) === sorted(wb)) return true;
  // One word swapped, wherever it recurs (a memory's text repeats its name before its content).
  const swaps = new Set(differing.map(([x, y]) => `${x} ${y}`));
  if (swaps.size !== 1) return false;
  const [x, y] = differing[0]!;
  return x.slice(0, 5) !== y.slice(0, 5);
}

/** Two memories that may be near-duplicates by meaning: they name the same things, in other words. */
function mayRestate(a: string, b: string): boolean {
  return sameNamedThings(a, b) && !changedInPlace(a, b);
}

/** New memories and entities of one delta compared by meaning at most (a bulk import is not held up by its size). */
export const MAX_COMPARED = 500;
/**
 * New nodes a delta may have for the audit to embed them beside questions, on the engine that answers at once
 * (embedPassagesNow); a larger delta waits its turn on the engine that drains the backlog. The backlog engine
 * answers one batch at a time: while 3,000 imported memories drained, a small delta's audit waited 1.3-4.6 s
 * for it (p50 2.0 s, bench/review.ts); a search embeds up to 32 passages the same way.
 */
export const EMBEDDED_NOW_UP_TO = 32;

/** Whether a delta of `count` new nodes is embedded at once (beside questions) rather than in the backlog's turn. */
const embedsNow = (embedder: Embedder, count: number): boolean =>
  count <= EMBEDDED_NOW_UP_TO && embedder.embedPassagesNow !== undefined;

/**
 * The new nodes' vectors: at once when `now` (bounded like a question), and in the backlog engine's turn otherwise
 * or when that did not answer in time, so a busy machine makes the audit slower, never different: three audits
 * of one delta at once answered `degraded` for one of them with the question's bound alone (2 s, at load 13).
 */
async function embedNewNodes(embedder: Embedder, now: boolean, texts: string[]): Promise<number[][]> {
  if (now && embedder.embedPassagesNow) {
    try {
      return await embedder.embedPassagesNow(texts);
    } catch (error) {
      if (!(error instanceof EmbeddingsUnavailableError) || error.reason === 'failed' || !embedder.available())
        throw error;
    }
  }
  return embedder.embedPassages(texts);
}

export interface MeaningFindings {
  findings: Finding[];
  degraded: Degraded[];
}

interface NewNode {
  kind: 'memory' | 'entity';
  id: string;
  name: string;
  type: string | null;
  text: string;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const quote = (name: string): string => (name === '' ? '' : ` ("${name}")`);

/**
 * Pairs of the delta's new memories at or above the threshold, each pair once (lower id first), from
 * their vectors: pure, so it is tested without engines.
 */
export function nearPairsInDelta<T extends { id: string; name: string; vector: readonly number[] }>(
  memories: readonly T[],
  threshold: number,
): { a: T; b: T; similarity: number }[] {
  const sorted = [...memories].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const pairs: { a: T; b: T; similarity: number }[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    for (let j = i + 1; j < sorted.length; j += 1) {
      const a = sorted[i]!;
      const b = sorted[j]!;
      const similarity = round4(cosine(a.vector, b.vector));
      if (similarity >= threshold) pairs.push({ a, b, similarity });
    }
  }
  return pairs;
}

/**
 * The findings by meaning that do not name a pair the exact checks already name (same_content,
 * same_content_in_delta, same_triple): those are left to them, so one pair is never warned about twice.
 */
export function withoutExactPairs(meaning: readonly Finding[], exact: readonly Finding[]): Finding[] {
  const pair = (f: Finding): string => [...f.node_ids].sort().join(',');
  const named = new Set(exact.filter((f) => f.check === 'duplicates').map(pair));
  return meaning.filter((f) => !named.has(pair(f)));
}

/**
 * The near-duplicate findings of a staged delta, every pair its vectors put near (withoutExactPairs leaves out
 * those the exact checks name). It needs nothing of the exact checks until then, so the audit runs it beside them.
 */
export async function nearDuplicateFindings(
  graph: Graph,
  deps: EmbedderDeps,
  actor: Actor,
  deltaId: string,
): Promise<MeaningFindings> {
  const projectId = actor.projectId;
  const meta = { request_id: actor.requestId, key_id: actor.keyId, purpose: 'preflight:meaning' };
  const embedder = deps.embedder;
  if (!embedder) return { findings: [], degraded: ['semantic'] };
  const rows = await readDeltaNodes(graph, deltaId, projectId, meta);
  const nodes: NewNode[] = rows
    .map((r) => {
      const props = r.props ?? {};
      return {
        kind: r.kind,
        id: r.id,
        name: typeof props.name === 'string' ? props.name : '',
        type: typeof props.type === 'string' ? props.type : null,
        text: nodeText(r.labels ?? [], props),
      };
    })
    .filter((n) => n.text !== '')
    .slice(0, MAX_COMPARED);
  if (nodes.length === 0) return { findings: [], degraded: [] };
  const now = embedsNow(embedder, nodes.length) && embedder.queriesAvailable();
  if (!now && !embedder.available()) return { findings: [], degraded: ['semantic'] };
  let vectors: number[][];
  try {
    vectors = await embedNewNodes(
      embedder,
      now,
      nodes.map((m) => m.text),
    );
  } catch (error) {
    if (error instanceof EmbeddingsUnavailableError) return { findings: [], degraded: ['semantic'] };
    throw error;
  }
  if (vectors.length !== nodes.length || vectors.some((v) => v.length !== embedder.model.dimensions))
    return { findings: [], degraded: ['semantic'] };

  const threshold = nearDuplicateThreshold(embedder.model.id);
  const embedded = nodes.map((m, i) => ({ ...m, vector: vectors[i]! }));
  const pending = embedded.filter((n) => n.kind === 'memory');
  const entities = embedded.filter((n) => n.kind === 'entity');
  const findings: Finding[] = [];

  const [near, nearEntities] = await readNear(graph, {
    deltaId,
    projectId,
    model: embedder.model.id,
    memories: pending.map((p) => ({ id: p.id, vector: p.vector })),
    entities: entities.map((p) => ({ id: p.id, type: p.type, vector: p.vector })),
    thresholds: { memory: threshold, entity: nearEntityThreshold(embedder.model.id) },
    meta,
  });
  for (const row of near) {
    const n = row.pending_id;
    const m = row.committed_id;
    const name = typeof row.committed_name === 'string' ? row.committed_name : '';
    const mine = pending.find((p) => p.id === n);
    const theirs = memoryText({ name: row.committed_name, content: row.committed_content });
    if (!mine || !mayRestate(mine.text, theirs)) continue;
    const similarity = round4(row.similarity);
    findings.push({
      check: 'duplicates',
      effect: 'introduces',
      severity: 'warning',
      message:
        `Memory ${n} says nearly what committed memory ${m}${quote(name)} says, in other words (similarity ` +
        `${similarity.toFixed(4)}, threshold ${threshold}). Drop it from the delta, or supersede the old one ` +
        'if it says more.',
      node_ids: [m, n].sort(),
      relationship_ids: [],
      evidence: {
        committed_node_id: m,
        model: embedder.model.id,
        node_type: 'Memory',
        pending_node_id: n,
        rule: 'near_content',
        similarity,
        threshold,
      },
    });
  }
  for (const { a, b, similarity } of nearPairsInDelta(pending, threshold)) {
    if (!mayRestate(a.text, b.text)) continue;
    findings.push({
      check: 'duplicates',
      effect: 'introduces',
      severity: 'warning',
      message:
        `Memories ${a.id}${quote(a.name)} and ${b.id}${quote(b.name)} of this delta say nearly the same thing ` +
        `in other words (similarity ${similarity.toFixed(4)}, threshold ${threshold}). Keep one.`,
      node_ids: [a.id, b.id],
      relationship_ids: [],
      evidence: {
        model: embedder.model.id,
        node_type: 'Memory',
        other_pending_node_id: b.id,
        pending_node_id: a.id,
        rule: 'near_content_in_delta',
        similarity,
        threshold,
      },
    });
  }
  const entityThreshold = nearEntityThreshold(embedder.model.id);
  const entityNames = new Map(entities.map((e) => [e.id, e.name]));
  for (const row of nearEntities) {
    const n = row.pending_id;
    const e = row.committed_id;
    const similarity = round4(row.similarity);
    const type = typeof row.type === 'string' ? row.type : 'entity';
    const name = typeof row.committed_name === 'string' ? row.committed_name : e;
    findings.push({
      check: 'duplicates',
      effect: 'introduces',
      severity: 'info',
      message:
        `${type} ${entityNames.get(n) ?? n} (${n}) may be committed ${type} ${name} (${e}) by meaning (similarity ` +
        `${similarity.toFixed(4)}, threshold ${entityThreshold}). Nothing is merged: if they are the same, point ` +
        `the delta at ${e} (or merge them later with POST /v1/entities/merge).`,
      node_ids: [e, n].sort(),
      relationship_ids: [],
      evidence: {
        committed_node_id: e,
        model: embedder.model.id,
        node_type: type,
        pending_node_id: n,
        rule: 'near_entity',
        similarity,
        threshold: entityThreshold,
      },
    });
  }
  return { findings, degraded: [] };
}
