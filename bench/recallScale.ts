// Issue 22 at scale: memory search and POST /v1/search latency at 100k memories WITH vectors, each
// mode (lexical, semantic, hybrid) measured in the same run on the same graph, so machine load falls
// on all alike; and the backlog drain rate measured on a sample.
//
// Data: the team's labelled recall corpus (test/recall/corpus.ts, 311 memories of one company) is
// embedded for real by the engine; the 100k memories cycle through its texts (each with its own
// serial number), and each carries its text's real vector plus independent Gaussian noise
// (|noise| about 0.2, renormalised: bench/vectors.ts), so no two vectors are equal and the HNSW index
// holds 100k distinct points. Embedding 100k texts on this machine would take hours (see the drain figure);
// the latency of the vector index does not depend on whether a vector came from the model or from
// this perturbation. How much meaning finds does: noise shrinks every cosine to a question by
// 1 / sqrt(1 + |noise|²), and memory search keeps a result meaning alone found only when the question's nearest
// memory is at 0.79 or more (docs/recall.md, "the meaning floor"). At the 0.5 the other benches use (0.89 times
// every cosine) the nearest fell to 0.77-0.82 and 99 of 174 hybrid answers at 3,000 memories were empty, reading
// less than a real answer; at 0.2 (0.98 times) it is at 0.79-0.89, as real questions' nearest are (0.798 and
// above), and none was empty. --noise 0.5 seeds the vectors the figures before 6 Dec 2026 were measured with.
//
// The memories are what the service writes for conversations (docs/episodes.md), so that hybrid recall's graph
// channels (docs/recall.md, "channels") have their data: every 20 consecutive memories are one episode (an
// :Episode node with the properties the linker and episodes/relink set, IN_EPISODE, the NEXT chain), observed
// 90 s apart, the episodes spread over the two years before the run; each memory carries a context vector as the
// embedding worker stores one (the real passage vector of its predecessor's text and its own, embedded once per
// pair of corpus texts, perturbed; an episode's first memory: its own text's, perturbed); and each is stamped
// for the mention worker as the applying write stamps it. The real mention worker (paused while the seed is
// written) then reads every memory's terms; its drain time is a figure, and the searches are measured once its
// backlog is empty.
//
// Questions are the corpus's questions plus a few bench-only ones that name people and named things and a time
// (so the hops and the time channel serve; no answer of theirs is labelled), embedded by the engine per request
// as in production (that call is part of every hybrid and semantic figure: the cache of question vectors
// is cleared before each timed call, so every question is new to it; one more line gives a question
// asked before; another the questions asking for several things, which the hops also walk by meaning from the
// terms' vectors, made before the questions). Each line says how many memories the answers held. A second project
// holds 20% more memories, since the vector index spans every project. Last, the vector statements alone through
// the driver, by the number of neighbours asked (k), and the time channel's statement alone for the bench questions'
// windows.
// Each hybrid memory search's phases (its Server-Timing header: the question's embedding, each channel's statement,
// the ranking, the answer's read) are summed up after the latencies, so the figure says where its time goes.
// Run: npx tsx bench/recallScale.ts [--memories 100000] [--drain 500] [--noise 0.2] [--keep]
//   --keep leaves the seeded graph (and a manifest) in the bench's data folder, and a later run with --keep and the
//   same --memories and --noise measures it again without seeding (use --drain 0 there: the drain adds memories).
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 22687; the engine on +5). It asserts nothing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Graph } from '../src/db/graph.js';
import type { QuestionCache } from '../src/embeddings/questionCache.js';
import { contextText } from '../src/embeddings/text.js';
import { tenantToken } from '../src/db/tenant.js';
import { episodeIdentity } from '../src/episodes/linker.js';
import { EXACT_UP_TO, similarityFloor } from '../src/search/meaning.js';
import { spanParams, timeWindows, toldSpans } from '../src/search/timeWindows.js';
import { RARE_TERM } from '../src/memories/channels.js';
import { hopTerms, TIME_SCAN } from '../src/memories/graphRecall.js';
import { asksForSeveral } from '../src/memories/termWalk.js';
import { MEMORIES, QUESTIONS } from '../test/recall/corpus.js';
import { readServerTiming } from '../src/shared/serverTiming.js';
import {
  awaitEngineIdle,
  benchEmbeddings,
  benchTenant,
  fmt,
  backlogDrained,
  mentionsDrained,
  percentile,
  startBench,
  timed,
} from './support.js';
import { createWithVectors, gaussian, perturbed, type VectorRow } from './vectors.js';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '100000' },
    drain: { type: 'string', default: '500' },
    noise: { type: 'string', default: '0.2' },
    keep: { type: 'boolean', default: false },
  },
});
const TOTAL = Number(values.memories);
const DRAIN = Number(values.drain);
/** The norm of each vector's noise (bench/vectors.ts perturbed; see above why 0.2). */
const NOISE = Number(values.noise);
const BATCH = 5_000;
const ROUNDS = 3;
/** Memories per episode (a conversation's turns), said this far apart; the episodes span the two years before now. */
const EPISODE = 20;
const TURN_MS = 90_000;
const SPAN_MS = 730 * 86_400_000;
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 22687);
if (BATCH % EPISODE !== 0) throw new Error('a batch holds whole episodes');

/** A corpus text with its real passage vector and the real vector of its context after the corpus text before it. */
interface PoolText {
  content: string;
  kind: string;
  vector: number[];
  context: number[];
}

/** A number in [0, 1) for `n`, the same every run (Knuth's multiplicative hash). */
const unitHash = (n: number): number => (Math.imul(n + 1, 2654435761) >>> 0) / 2 ** 32;

/**
 * Writes `count` memories as the service leaves a project's conversations once its workers have run (vectors and
 * context vectors made, the mention queue stamped): episodes of EPISODE memories, each episode observed at its own
 * moment of the SPAN_MS before `end`, its memories TURN_MS apart.
 */
async function seed(
  graph: Graph,
  projectId: string,
  count: number,
  pool: PoolText[],
  model: string,
  seedNo: number,
  end: number,
): Promise<void> {
  const rand = gaussian(seedNo);
  const episodes = Math.ceil(count / EPISODE);
  const slot = SPAN_MS / episodes;
  const contentOf = (i: number): string => `${pool[i % pool.length]!.content} (record ${seedNo}-${i})`;
  for (let start = 0; start < count; start += BATCH) {
    const rows: (VectorRow & { observed_at: string })[] = [];
    for (let i = start; i < Math.min(start + BATCH, count); i += 1) {
      const e = Math.floor(i / EPISODE);
      const turn = i % EPISODE;
      const base = pool[i % pool.length]!;
      const opened = end - SPAN_MS + (e + 0.9 * unitHash(seedNo * 1_000_003 + e)) * slot;
      rows.push({
        id: crypto.randomUUID(),
        content: contentOf(i),
        kind: base.kind,
        vector: perturbed(base.vector, rand, NOISE),
        observed_at: new Date(opened + turn * TURN_MS).toISOString(),
        episode: `bench-${seedNo}-${e}`,
        context: perturbed(turn === 0 ? base.vector : base.context, rand, NOISE),
        previous: turn === 0 ? null : contentOf(i - 1),
      });
    }
    await createWithVectors(graph, projectId, model, rows, { mentions: true });
    await createEpisodes(graph, projectId, rows);
    process.stderr.write(`\r  project ${seedNo}: ${start + rows.length} memories`);
  }
  process.stderr.write('\n');
}

/**
 * The episodes of `rows` (in observed order within each episode), as a write of a conversation leaves them once
 * applied: the :Episode node with the properties the linker stages (src/episodes/linker.ts) and episodes/relink
 * derives (memory_count, first and last observed_at, text: its latest 200 memories, at most 20,000 characters), each
 * memory's IN_EPISODE link and the NEXT chain in observed order, with the properties a committed write gives them.
 */
async function createEpisodes(
  graph: Graph,
  projectId: string,
  rows: { id: string; content: string; episode?: string; observed_at: string }[],
): Promise<void> {
  const byKey = new Map<string, typeof rows>();
  for (const r of rows) byKey.set(r.episode!, [...(byKey.get(r.episode!) ?? []), r]);
  const episodes = [...byKey].map(([key, members]) => ({
    id: crypto.randomUUID(),
    key,
    identity_key: episodeIdentity(projectId, key),
    members: members.map((m) => m.id),
    first: members[0]!.observed_at,
    last: members.at(-1)!.observed_at,
    text: members
      .slice(-200)
      .map((m) => `${m.content}\n`)
      .join('')
      .slice(0, 20_000),
  }));
  await graph.write((tx) =>
    tx.runText(
      `UNWIND $episodes AS x
       CREATE (e:Knowledge:Episode {id: x.id, project_id: $p, key: x.key, name: x.key, tenant: $tenant,
         identity_key: x.identity_key, memory_count: size(x.members), first_observed_at: datetime(x.first),
         last_observed_at: datetime(x.last), text: x.text, created_at: datetime(), updated_at: datetime()})
       WITH e, x
       CALL (e, x) {
         UNWIND range(0, size(x.members) - 1) AS i
         MATCH (m:Knowledge {id: x.members[i]})
         CREATE (m)-[:IN_EPISODE {id: randomUUID(), project_id: $p, created_at: datetime()}]->(e)
         WITH i, m ORDER BY i
         WITH collect(m) AS members
         UNWIND range(0, size(members) - 2) AS i
         WITH members[i] AS a, members[i + 1] AS b
         CREATE (a)-[:NEXT {id: randomUUID(), project_id: $p, created_at: datetime()}]->(b)
       }`,
      { episodes, p: projectId, tenant: tenantToken(projectId) },
    ),
  );
}

/** What --keep leaves beside the seeded graph: what was seeded, and the keys of its two projects. */
interface Manifest {
  total: number;
  noise: number;
  end: number;
  tenant: Awaited<ReturnType<typeof benchTenant>>;
  other: Awaited<ReturnType<typeof benchTenant>>;
}

const env = await startBench('recall-scale', { neo4j: neo4jPort, temporal: neo4jPort - 454 }, { keep: values.keep });
try {
  const { service } = env;
  const graph = service.deps.graph;
  const runtime = benchEmbeddings(service);
  const model = runtime.embedder.model.id;
  const manifestFile = path.join(env.dataDir, 'recall-scale-manifest.json');
  const kept =
    values.keep && fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest) : null;
  if (kept && (kept.total !== TOTAL || kept.noise !== NOISE))
    throw new Error(`--keep: the kept graph holds ${kept.total} memories at noise ${kept.noise}`);
  const tenant = kept?.tenant ?? (await benchTenant(service));
  const other = kept?.other ?? (await benchTenant(service));
  const end = kept?.end ?? Date.now() - 86_400_000;
  const seeded = TOTAL + Math.round(TOTAL / 5);
  if (kept) console.log(`--keep: measuring the ${seeded} memories seeded before, without seeding`);
  else {
    await seedAll(tenant.projectId, other.projectId, end);
    if (values.keep)
      fs.writeFileSync(manifestFile, JSON.stringify({ total: TOTAL, noise: NOISE, end, tenant, other } as Manifest));
  }

  /** Embeds the corpus, seeds both projects, and waits for the mention worker and the engine to be done. */
  async function seedAll(projectId: string, otherId: string, endMs: number): Promise<void> {
    console.log(`embedding the ${MEMORIES.length} corpus memories, and each after the one before it, with ${model}…`);
    const embed = async (texts: string[]): Promise<number[][]> => {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += 32)
        out.push(...(await runtime.embedder.embedPassages(texts.slice(i, i + 32))));
      return out;
    };
    const vectors = await embed(MEMORIES.map((m) => m.content));
    // The context of the i-th corpus text in a seeded episode: the text before it in the corpus's cycle, then its own.
    const contexts = await embed(
      MEMORIES.map((m, i) => contextText(MEMORIES[(i + MEMORIES.length - 1) % MEMORIES.length]!.content, m)),
    );
    const pool = MEMORIES.map((m, i) => ({
      content: m.content,
      kind: m.kind,
      vector: vectors[i]!,
      context: contexts[i]!,
    }));

    console.log(
      `seeding ${TOTAL} memories with vectors, in episodes of ${EPISODE} ` +
        `(+${Math.round(TOTAL / 5)} in a second project)…`,
    );
    // The mention worker waits until the seed is written, so its drain is measured alone.
    await service.deps.runtime.mentions?.stop();
    const [seedMs] = await timed(async () => {
      await seed(graph, projectId, TOTAL, pool, model, 1, endMs);
      await seed(graph, otherId, Math.round(TOTAL / 5), pool, model, 2, endMs);
      await graph.read((tx) => tx.runText('CALL db.awaitIndexes(1200)'));
    });
    service.deps.runtime.mentions?.start();
    const drainedIn = await mentionsDrained(graph);
    // The terms the mention worker made are embedded from their names (the hops' walk by meaning starts from them).
    console.log(`the terms' vectors made in ${(await backlogDrained(graph, undefined, 250)).toFixed(1)} s`);
    const [links] = await graph.read((tx) =>
      tx.runText(
        `MATCH (t:Term) WITH count(t) AS terms
         RETURN terms, COUNT { ()-[:MENTIONS]->(:Term) } AS mentions, COUNT { ()-[:NEXT]->() } AS next`,
      ),
    );
    console.log(
      `mention worker: ${seeded} memories read in ${drainedIn.toFixed(1)} s = ${(seeded / drainedIn).toFixed(0)} ` +
        `memories/s (${String(links?.terms)} terms, ${String(links?.mentions)} MENTIONS links; ` +
        `${String(links?.next)} NEXT links)`,
    );
    // The vector index merges its segments after the bulk write: the figures are taken once that is done.
    const settled = await awaitEngineIdle(env);
    console.log(
      `seeded and indexed in ${(seedMs / 1000).toFixed(1)} s; the engine idle ${settled ?? '(not watched)'} s after ` +
        'the mentions were read',
    );
  }

  interface Answer {
    memories?: unknown[];
    nodes?: { match?: Record<string, unknown> }[];
    count?: number;
    channels?: string[];
    time?: { expression: string }[];
  }
  /** The phases (Server-Timing) of the last answer. */
  let lastPhases = new Map<string, number>();
  const ask = async (path: string, body: unknown): Promise<Answer> => {
    const r = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await r.json()) as Answer;
    lastPhases = readServerTiming(r.headers.get('server-timing'));
    if (r.status >= 300) throw new Error(`${path} answered ${r.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const post = async (path: string, body: unknown): Promise<number> => {
    const json = await ask(path, body);
    return json.memories?.length ?? json.count ?? 0;
  };
  const modes = ['lexical', 'semantic', 'hybrid'] as const;
  const calls = {
    'POST /v1/memories/search': (query: string, mode: string) =>
      post('/v1/memories/search', { query, mode, limit: 10 }),
    'POST /v1/search (memory plane)': (query: string, mode: string) =>
      post('/v1/search', { query, mode, planes: ['memory'], limit: 10 }),
  };
  // Bench-only questions (not the labelled corpus: no answer is checked): they name people and named things of the
  // corpus, where the hops start, and most a time the seeded episodes span, which the time channel reads.
  const month = (ms: number): string => new Date(ms).toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
  const yearAgo = end - 365 * 86_400_000;
  const benchQuestions = [
    `What did Ingrid Solberg tell the company in ${month(yearAgo)} ${new Date(yearAgo).getUTCFullYear()}?`,
    `Did Tomas Reinholt sign off any big purchase last ${month(end - 120 * 86_400_000)}?`,
    'What did Mette Aas say about parental leave two weeks ago?',
    `Which problems did we have with Nordhost in ${new Date(yearAgo).getUTCFullYear()}?`,
    'Is Skagen Mutual still insuring the test vessels?',
    'When does Brightwater Payroll pay salaries?',
  ];
  const questions = [...QUESTIONS.map((q) => q.question), ...benchQuestions];
  const benchOnly = new Set(benchQuestions);
  /** The questions the hops also walk by meaning (src/memories/termWalk.ts). */
  const walked = new Set(questions.filter(asksForSeveral));
  const cache = (runtime.embedder as { cache?: QuestionCache | null }).cache ?? null;
  const forget = (): void => cache?.clear();
  // Warm-up: every question once per mode (caches, JIT, the engine's first calls).
  for (const call of Object.values(calls)) for (const mode of modes) for (const q of questions) await call(q, mode);
  // Which channels served, for a sample: two corpus questions and the bench-only ones (hybrid, limit 10), and how
  // many of the answer's memories each channel ranked (the match's ranks).
  console.log('\nchannels served (hybrid memory search, limit 10; "ranked": results the channel ranked):');
  const ranks = {
    words: 'lexical_rank',
    meaning: 'semantic_rank',
    context: 'context_rank',
    episode: 'episode_rank',
    hops: 'graph_rank',
    time: 'time_rank',
  } as const;
  for (const q of [...questions.slice(0, 2), ...benchQuestions, ...walked]) {
    const answer = await ask('/v1/memories/search', { query: q, mode: 'hybrid', limit: 10 });
    const nodes = answer.nodes ?? [];
    const ranked = Object.entries(ranks)
      .map(([channel, rank]) => `${channel} ${nodes.filter((n) => n.match?.[rank] != null).length}`)
      .join(', ');
    const time = (answer.time ?? []).map((w) => `"${w.expression}"`).join(', ');
    const best = Math.max(-1, ...nodes.map((n) => Math.max(Number(n.match?.similarity ?? -1), -1)));
    console.log(
      `  ${q}\n    channels [${(answer.channels ?? []).join(', ')}]; hops from [${hopTerms(q).join(', ')}]; ` +
        `time ${time || 'none'}; ${nodes.length} results (best similarity ${best.toFixed(3)}); ranked: ${ranked}`,
    );
  }
  const samples = new Map<string, number[]>();
  /** Each phase of the timed hybrid memory searches (Server-Timing), over the calls that ran it. */
  const phases = new Map<string, number[]>();
  /** How many memories each timed answer held: an answer the meaning floor empties reads less. */
  const answered = new Map<string, number[]>();
  const sample = (key: string, [ms, results]: [number, number]): void => {
    samples.set(key, [...(samples.get(key) ?? []), ms]);
    answered.set(key, [...(answered.get(key) ?? []), results]);
  };
  /** The service's embedder, whose order (embed first, or beside the words) a line compares. */
  const ordered = service.deps.embedder?.sharesCores ? (service.deps.embedder as { sharesCores: boolean }) : null;
  // Rounds interleave the modes question by question, so load at any moment falls on all of them.
  for (let round = 0; round < ROUNDS; round += 1)
    for (const q of questions)
      for (const [name, call] of Object.entries(calls))
        for (const mode of modes) {
          forget();
          const measured = await timed(() => call(q, mode));
          sample(`${name} ${mode}`, measured);
          if (name === 'POST /v1/memories/search' && mode === 'hybrid')
            for (const [phase, ms] of lastPhases) phases.set(phase, [...(phases.get(phase) ?? []), ms]);
          if (benchOnly.has(q) && name === 'POST /v1/memories/search')
            sample(`${name} ${mode}, names/time qs`, measured);
          if (walked.has(q) && name === 'POST /v1/memories/search')
            sample(`${name} ${mode}, list qs (walked)`, measured);
          if (name === 'POST /v1/memories/search' && mode === 'hybrid' && ordered) {
            // The same question in the other order: the words read beside the embedding, as with an engine
            // elsewhere (the service embeds first when its engine shares the machine's cores).
            forget();
            ordered.sharesCores = false;
            try {
              sample(`${name} hybrid, words beside the embedding`, await timed(() => call(q, mode)));
            } finally {
              ordered.sharesCores = true;
            }
          }
        }
  // A question asked before: its vector comes from the cache (no engine call).
  if (cache)
    for (let round = 0; round < ROUNDS; round += 1)
      for (const q of questions) {
        await calls['POST /v1/memories/search'](q, 'hybrid');
        sample(
          'POST /v1/memories/search hybrid, asked before',
          await timed(() => calls['POST /v1/memories/search'](q, 'hybrid')),
        );
      }
  // The engine's own share: one new question embedded alone.
  const embedOnly: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1)
    for (const q of questions) {
      forget();
      embedOnly.push((await timed(() => runtime.embedder.embedQueries([q])))[0]);
    }
  // The vector statements alone (what hybrid recall runs for meaning and for context), by k: recall asks for
  // max(100, 2 x candidates) neighbours, 120 at limit 10, deeper when too few of the project's pass the floor, and
  // filters them to the project; each hit with what the channels read of it (its episode, terms), as recall asks.
  const byK = new Map<string, number[]>();
  const now = new Date().toISOString();
  const linked = {
    project_id: tenant.projectId,
    now,
    valid_at: now,
    kinds: null,
    episode: null,
    links: true,
    terms: [] as string[],
    rare_terms: RARE_TERM,
  };
  const questionVectors: number[][] = [];
  for (const q of questions) questionVectors.push(...(await runtime.embedder.embedQueries([q])));
  for (let round = 0; round < ROUNDS; round += 1)
    for (const k of [60, 120, 240, 480, 960])
      for (const statement of ['memories/vector', 'memories/context_vector'])
        for (const vector of questionVectors) {
          const [ms] = await timed(() =>
            graph.read((tx) =>
              tx.run(statement, {
                ...linked,
                vector,
                model,
                k,
                exact_up_to: EXACT_UP_TO,
                min_similarity: similarityFloor(model),
              }),
            ),
          );
          const key = `${statement} alone, k = ${k}`;
          byK.set(key, [...(byK.get(key) ?? []), ms]);
        }
  // The time channel's statement alone (memories/observed: the memories observed in the windows, at most
  // TIME_SCAN in src/memories/graphRecall.ts, each compared with the question), for each bench question with a time.
  const byWindow = new Map<string, { ms: number[]; read: number }>();
  for (let round = 0; round < ROUNDS; round += 1)
    for (const q of benchQuestions) {
      const windows = timeWindows(q, new Date(now));
      if (windows.length === 0) continue;
      const vector = questionVectors[questions.indexOf(q)]!;
      const params = {
        ...linked,
        terms: hopTerms(q),
        windows: spanParams(toldSpans(windows)),
        vector,
        model,
        scan: TIME_SCAN,
        limit: 60,
      };
      const [ms] = await timed(() => graph.read((tx) => tx.run('memories/observed', params)));
      const key = windows.map((w) => w.expression).join(', ');
      const entry = byWindow.get(key) ?? { ms: [], read: 0 };
      entry.ms.push(ms);
      if (round === 0) {
        const [row] = await graph.read((tx) =>
          tx.runText(
            `UNWIND $windows AS w MATCH (m:Memory) WHERE m.project_id = $project_id
               AND m.observed_at >= datetime(w.from) AND m.observed_at < datetime(w.to)
             RETURN count(m) AS observed`,
            params,
          ),
        );
        entry.read = Number(row?.observed ?? 0);
      }
      byWindow.set(key, entry);
    }

  console.log(
    `\n== ${TOTAL} memories with vectors in the project (${seeded} in the index), in episodes of ${EPISODE}; ` +
      `${questions.length} questions (${benchQuestions.length} bench-only) x ${ROUNDS} rounds, limit 10 ==`,
  );
  const line = (label: string, s: number[], tail = ''): void =>
    console.log(
      `${label.padEnd(52)} p50 ${fmt(percentile(s, 50)).padStart(9)}  p95 ${fmt(percentile(s, 95)).padStart(9)}${tail}`,
    );
  for (const [key, s] of samples) {
    const counts = answered.get(key) ?? [];
    const mean = counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length);
    const empty = counts.filter((c) => c === 0).length;
    line(key, s, `  max ${fmt(Math.max(...s)).padStart(9)}  results ${mean.toFixed(1)}, ${empty} empty`);
  }
  console.log('\nwhere a hybrid memory search spends it (Server-Timing; phases in one step run side by side):');
  for (const [name, s] of phases) line(`  ${name} (${s.length} calls)`, s);
  line('embedding one question (engine call alone)', embedOnly);
  for (const [key, s] of byK) line(key, s);
  for (const [key, { ms, read }] of byWindow)
    line(`memories/observed alone, ${key} (${read} observed, at most ${TIME_SCAN} read)`, ms);

  if (DRAIN > 0) {
    // The backlog drain rate: memories created through the API (queued in the apply), drained by the worker.
    const texts = Array.from({ length: DRAIN }, (_, i) => `${MEMORIES[i % MEMORIES.length]!.content} (drain ${i})`);
    for (let i = 0; i < texts.length; i += 100)
      await post('/v1/memories', { memories: texts.slice(i, i + 100).map((content) => ({ content })) });
    const seconds = await backlogDrained(graph, undefined, 250);
    console.log(
      `\nbacklog drain: ${DRAIN} memories in ${seconds.toFixed(1)} s = ${(DRAIN / seconds).toFixed(1)} memories/s; ` +
        `100k at this rate: ${(100_000 / (DRAIN / seconds) / 3600).toFixed(2)} h`,
    );
  }
} finally {
  await env.stop();
}
