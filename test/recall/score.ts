// Loads the labelled recall set into a project through the API and scores recall on it: R@1, R@5 and
// MRR (over the top 10) per mode and per question family. Shared by `npm run eval:recall` and the
// recall tests.
import type { Tenant } from '../support/api.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { MEMORIES, QUESTIONS, type LabelledQuestion } from './corpus.js';
import { HELD_OUT } from './heldout.js';

/** The two question sets on the corpus, by name: the first, and the held-out one written before looking. */
export const RECALL_SETS = [
  ['first set', QUESTIONS],
  ['held-out set (test/recall/heldout.ts)', HELD_OUT],
] as const;

export const MODES = ['lexical', 'semantic', 'hybrid'] as const;
export type Mode = (typeof MODES)[number];

/** Stores the corpus (batches of 100, applied) and returns memory id by key. */
export async function loadCorpus(tenant: Tenant): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (let i = 0; i < MEMORIES.length; i += 100) {
    const batch = MEMORIES.slice(i, i + 100);
    const r = await tenant.post('/v1/memories', {
      memories: batch.map((m) => ({ content: m.content, kind: m.kind })),
    });
    if (r.status !== 201 && r.status !== 200)
      throw new Error(`loading the corpus: ${r.status} ${JSON.stringify(r.body)}`);
    const created = (r.body.memories ?? r.body.created ?? []) as { id: string }[];
    batch.forEach((m, j) => ids.set(m.key, created[j]!.id));
  }
  return ids;
}

/** Waits until every memory of the project has its vector (the embedding worker drains the queue). */
export const waitForVectors = waitForEmbeddings;

export interface QuestionResult {
  question: LabelledQuestion;
  /** Rank of the answer from 1, or null when not in the top 10. */
  rank: number | null;
}

export async function ask(tenant: Tenant, ids: Map<string, string>, q: LabelledQuestion, mode: Mode) {
  const r = await tenant.post('/v1/memories/search', { query: q.question, limit: 10, mode });
  if (r.status !== 200) throw new Error(`search: ${r.status} ${JSON.stringify(r.body)}`);
  const found = (r.body.nodes as { id: string }[]).map((n) => n.id);
  const at = found.indexOf(ids.get(q.answer)!);
  return { question: q, rank: at < 0 ? null : at + 1, body: r.body };
}

export interface Figures {
  n: number;
  r1: number;
  r5: number;
  mrr: number;
}

export function figures(results: QuestionResult[]): Figures {
  const n = results.length;
  const r1 = results.filter((r) => r.rank === 1).length / n;
  const r5 = results.filter((r) => r.rank !== null && r.rank <= 5).length / n;
  const mrr = results.reduce((s, r) => s + (r.rank ? 1 / r.rank : 0), 0) / n;
  return { n, r1, r5, mrr };
}

/** Every question of the set (the first set by default) asked in every mode, top 10 read. */
export async function evaluate(tenant: Tenant, ids: Map<string, string>, questions: LabelledQuestion[] = QUESTIONS) {
  const out: Record<Mode, QuestionResult[]> = { lexical: [], semantic: [], hybrid: [] };
  for (const mode of MODES)
    for (const q of questions) {
      const { question, rank } = await ask(tenant, ids, q, mode);
      out[mode].push({ question, rank });
    }
  return out;
}

export function formatFigures(results: Record<Mode, QuestionResult[]>): string {
  const lines = ['mode      family       n    R@1    R@5    MRR'];
  for (const mode of MODES)
    for (const family of ['all', 'paraphrase', 'identifier'] as const) {
      const subset = results[mode].filter((r) => family === 'all' || r.question.family === family);
      const f = figures(subset);
      lines.push(
        `${mode.padEnd(9)} ${family.padEnd(11)} ${String(f.n).padStart(3)}  ${f.r1.toFixed(3)}  ${f.r5.toFixed(3)}  ${f.mrr.toFixed(3)}`,
      );
    }
  return lines.join('\n');
}
