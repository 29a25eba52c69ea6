// Full-text reads that may leave out the tenant clause. A full-text statement finds a project's nodes with a
// Lucene query that requires the project's tenant token (src/db/tenant.ts). In an index that is mostly one
// project's, that clause is a third of the query's cost: the token's postings list every document, and each
// word hit is checked against it (issue 27: 15.5 ms with it, 10.8 without, at 1M memories of one project).
//
// The full-text statements of recall, search and context compile (memories/search, search/chunks,
// search/entities, context/*_search) first read the tenant term's score, which falls as the project's share
// of the index grows. At or above half, a statement queries the words alone, keeps the project's hits by its
// own WHERE, and says so (`bare`). Its answer is the tenant query's answer when its window of the index's
// first `candidates` hits held every hit the tenant query's would have (`whole`: it was all the project's, or
// short of `candidates` but not empty), or when it kept `limit` hits: the project's hits in the window are
// the project's first hits, in the same order, so the first `limit` of them that pass the filters are the
// same ones. Otherwise the statement runs again with the tenant clause: the window held other projects' hits
// in place of some of the project's, or it was empty, which may be words the analyzer drops entirely ("the":
// the tenant query then matches every node of the project). So the choice changes the cost, never the answer
// (up to the order of hits whose scores are equal to the last bit, as at any window's edge). The loops'
// hydrate statements keep the tenant query: they run in the background.
import type { Reader } from './graph.js';
import { isRehearsal } from './warming.js';
import { tenantToken } from './tenant.js';

/**
 * The tenant term's score at a project's share of one half. Lucene's BM25 (idf × tf / (tf + k1 × norm), k1 =
 * 1.2) scores the tenant term, one token in a one-token field, at ln(1 + (N − n + 0.5) / (n + 0.5)) / 2.2 for n
 * of N documents: ln 2 / 2.2 at n = N / 2, and lower as n grows.
 */
export const BARE_BELOW = Math.log(2) / 2.2;

/** What an opted-in statement needs beside $lucene: the words alone (null: the tenant query), the tenant term. */
export function fullTextParams(lucene: string, projectId: string, bare = true) {
  const term = `tenant:${tenantToken(projectId)}`;
  const clause = `+${term} `;
  if (!lucene.startsWith(clause)) throw new Error('a full-text query starts with its tenant clause (luceneQuery)');
  return { lucene, lucene_bare: bare ? lucene.slice(clause.length) : null, tenant_term: term, bare_below: BARE_BELOW };
}

/**
 * The one row of an opted-in statement: whether it queried the words alone, whether its window held every hit
 * the tenant query's would have, and its hits (at most $limit).
 */
export interface FullTextRow<R> {
  bare: boolean;
  whole: boolean;
  hits: R[] | null;
}

type FullTextParams = Record<string, unknown> & { project_id: string; lucene: string; limit: number };

/**
 * The hits of an opted-in statement (`name`, run by `reader` with `params`, whose project_id and lucene it
 * reads): read once, and once more with the tenant clause when the words-alone window was neither whole nor
 * gave `limit` hits. No row: the project has nothing in the index.
 */
export async function fullTextHits<R>(reader: Pick<Reader, 'run'>, name: string, params: FullTextParams): Promise<R[]> {
  return (await fullTextRow<FullTextRow<R>>(reader, name, params))?.hits ?? [];
}

/**
 * The row of an opted-in statement whose hits are the answer (fullTextHits), with whatever else the statement
 * answers beside them (X: memories/search's edges of a whole answer); undefined when it gave no row.
 */
export async function fullTextRow<X extends FullTextRow<unknown>>(
  reader: Pick<Reader, 'run'>,
  name: string,
  params: FullTextParams,
): Promise<X | undefined> {
  const words = { ...params, ...fullTextParams(params.lucene, params.project_id) };
  const [first] = await reader.run<X>(name, words);
  if (!first) {
    // The rehearsal's project has nothing in the index, so it would never run the tenant query below, whose
    // lucene_bare null is a parameter of another type, planned apart: a user's first question whose words-alone
    // window fell short planned it (230 ms after a restart). The rehearsal runs it too.
    if (isRehearsal(params.project_id)) await reader.run<X>(name, { ...words, lucene_bare: null });
    return undefined;
  }
  if (!first.bare || first.whole || (first.hits ?? []).length >= params.limit) return first;
  const [again] = await reader.run<X>(name, { ...words, lucene_bare: null });
  return again;
}
