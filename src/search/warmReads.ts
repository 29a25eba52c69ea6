// The read paths' rehearsal at start: memory search, /v1/search and a context compile asked a few questions of a
// project that does not exist, as the service begins to listen (beside its first requests: 10-15 s on a fresh
// engine). Neo4j plans each statement the first time it meets it with parameters of a new size class
// (src/db/warming.ts, sizeClass), and a question's words, rare words, hops and time windows vary those sizes: after
// a restart on a stored graph the first hybrid search took 0.8-1.0 s and the first of each new shape 0.6-0.9 s
// (every statement of one waiting about as long), the later ones 40-160 ms (.cache/probe/firstSearch.ts --keep).
// The questions below give the statements their usual size classes (a question naming people also plans the speakers'
// lookup, memories/speakers_named, for one name and for two): one word; a question without names; one name
// and one time; two names and two times in a long question; three asking for several things (with no name, one and
// two: the hops' terms, another list), which the hops walk by meaning (src/memories/termWalk.ts). Each is asked
// twice: as a request with a known key asks it (its first statement carries the key's standing check,
// Graph.withStanding, a parameter the plan is keyed by too), and as the first request of a key this process has not
// seen asks it (the key read on its own first). With the rehearsal, the first search took 0.34 s and the first of
// each shape 56-120 ms.
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import { NO_MATCH_ID } from '../db/warming.js';
import { keyStandingStatement } from '../auth/keys.js';
import { readAnswered, recallMemories } from '../memories/recall.js';
import { searchPlanes } from './service.js';
import { PLANES } from './schemas.js';
import { compileSlice } from '../context/service.js';
import { normalizeDefinition } from '../slices/definition.js';
import { isEnglishWord } from './dictionary.js';
import { termVectorsOf } from '../memories/termVectors.js';

export const WARM_QUESTIONS = [
  'harbour',
  'Who plays the violin?',
  'What did Alice say about the garden last May?',
  'What did Alice and Bruno say about the garden plans for the harbour festival in March 2023 and in June 2024?',
  // Questions asking for several things: the hops' walk by meaning (src/memories/termWalk.ts), with no name, one and
  // two (the statements' hop terms: an empty list is planned apart from a list of names).
  'Which instruments are played?',
  'What instruments does Alice play?',
  'What games do Alice and Bruno both like?',
];

/** The reads of a whole rehearsal: each question on each read path, twice, and the answer's two reads. */
export const WARM_READS = WARM_QUESTIONS.length * 3 * 2 + 2;

/** The longest the rehearsal runs: a question not reached by then is planned by its first request. */
export const WARM_READS_BUDGET_MS = 30_000;

/**
 * Asks every question of WARM_QUESTIONS through memory search, /v1/search and a context compile of a project that
 * does not exist (nothing is read or written), within the budget (WARM_READS_BUDGET_MS unless told) and until
 * `stopped` (the service closing), each read after `beforeRead` (the read plan keeper's wait for a quiet moment,
 * src/search/readPlans.ts). A failure is logged and ignored: the request that meets the same statement plans it.
 * Resolves how many reads ran.
 */
export async function warmReads(
  deps: GraphDeps & EmbedderDeps,
  logger: Logger,
  options: {
    stopped?: () => boolean;
    beforeRead?: () => Promise<unknown>;
    budgetMs?: number;
    /** Why it runs, for the log (the start's rehearsal says none). */
    reason?: string;
  } = {},
): Promise<number> {
  const { stopped = () => false, beforeRead = () => Promise.resolve(), budgetMs = WARM_READS_BUDGET_MS } = options;
  const began = Date.now();
  const project = NO_MATCH_ID;
  const def = normalizeDefinition({ budget: { max_tokens: 2000 } }, '/body/slice');
  const reads: ((query: string) => Promise<unknown>)[] = [
    (query) => recallMemories(deps, project, { query, limit: 10, kinds: undefined }),
    (query) => searchPlanes(deps, project, { query, planes: [...PLANES], filters: {}, limit: 10 }),
    (query) => compileSlice(deps, project, { def, slice: null }, { query }),
  ];
  // A known key's standing check, of a key that does not exist and that nothing refuses.
  const standing = { ...keyStandingStatement(NO_MATCH_ID), refusal: () => null };
  let ran = 0;
  try {
    // The rare-word rule's word list (274,000 words read on first use), which a project without memories never asks:
    // the first search that found a rare word spent 200 ms in its ranking reading it.
    isEnglishWord(WARM_QUESTIONS[0]!);
    // The walk by meaning holds a small project's term vectors once read (src/memories/termVectors.ts): a rehearsal
    // after the first reads them again, so their statement is planned again too when its plan went stale.
    termVectorsOf(deps.graph).forget(project);
    for (const query of WARM_QUESTIONS)
      for (const read of reads) {
        if (stopped() || Date.now() - began > budgetMs) return ran;
        await beforeRead();
        await deps.graph.withStanding(standing, () => read(query));
        await beforeRead();
        await read(query);
        ran += 2;
      }
    // A search's answer (its results whole, with their edges), which a project without memories never reads: for
    // one result and for a page of ten (their plans apart). On the stored graph it took 150 ms the first time.
    for (const count of [1, 10]) {
      if (stopped()) return ran;
      await beforeRead();
      const ids = Array.from({ length: count }, () => crypto.randomUUID());
      await deps.graph.readEach((tx) => readAnswered(tx, project, ids, []));
      ran += 1;
    }
    return ran;
  } catch (error) {
    logger.warn({ err: error }, 'warming the read paths failed; their first requests plan them');
    return ran;
  } finally {
    logger.info(
      { reads: ran, ms: Date.now() - began, ...(options.reason ? { reason: options.reason } : {}) },
      'read paths warmed',
    );
  }
}
