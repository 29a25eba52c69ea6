// What reading a small project's vectors exactly costs beside asking the vector index (docs/recall.md,
// "Exact for small projects"): for projects of each size, the memories/vector statement read exactly
// (exact_up_to at the size), through the index (exact_up_to 0) and as the service reads it (EXACT_UP_TO: exact up to it,
// past it the index after counting the project's first EXACT_UP_TO + 1 memories) on the same graph, one after the other per
// question, so machine load falls on both alike; a bare round trip (RETURN 1) beside them. Then the preflight's
// near duplicates of a delta of 100 new memories, exact and through the index, 5 counted runs each. Each project's
// memories are written through the API; their vectors are perturbed copies of real passage vectors
// (bench/vectors.ts). Questions are embedded by the engine once, before timing.
// Run: npx tsx bench/nearExact.ts [--sizes 100,500,1000,5000] [--rounds 5]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 29687). It asserts nothing.
import { parseArgs } from 'node:util';
import { EXACT_UP_TO, similarityFloor } from '../src/search/meaning.js';
import { benchEmbeddings, benchTenant, fillMemories, percentile, startBench, timed, words } from './support.js';
import { fillPool, memoryIds, writeVectors } from './vectors.js';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '100,500,1000,5000' }, rounds: { type: 'string', default: '5' } },
});
const SIZES = values.sizes.split(',').map(Number);
const ROUNDS = Number(values.rounds);
const QUESTIONS = 40;
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 29687);

const env = await startBench('near-exact', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
try {
  const { service } = env;
  const graph = service.deps.graph;
  const { embedder, worker } = benchEmbeddings(service);
  await worker?.stop(); // vectors are written here; the worker would embed the same memories again
  const model = embedder.model.id;
  const pool = await fillPool(embedder, 256);
  const questions: number[][] = [];
  for (let i = 0; i < QUESTIONS; i += 1) questions.push(...(await embedder.embedQueries([words(i + 6.5e6, 2)])));
  console.log(
    `exact_up_to in the service: ${EXACT_UP_TO}; ${QUESTIONS} questions x ${ROUNDS} rounds, first round not counted`,
  );
  for (const size of SIZES) {
    const tenant = await benchTenant(service);
    await fillMemories(service.url, tenant.key, size, size * 10);
    const ids = await memoryIds(graph, tenant.projectId);
    await writeVectors(graph, ids, pool, model, { seed: size, batch: 2000 });
    const now = new Date().toISOString();
    const read = (exactUpTo: number, vector: number[]) =>
      graph.read((tx) =>
        tx.one('memories/vector', {
          project_id: tenant.projectId,
          now,
          valid_at: now,
          kinds: null,
          vector,
          model,
          k: 100,
          min_similarity: similarityFloor(model),
          exact_up_to: exactUpTo,
        }),
      );
    // The preflight's near duplicates of a delta of 100 new memories (one statement for all of them).
    const pending = pool.slice(0, 100).map((vector, i) => ({ id: `pending-${i}`, vector }));
    const audit = (exactUpTo: number) =>
      graph.read((tx) =>
        tx.run('preflight/meaning/near_duplicates', {
          pending,
          k: 200,
          exact_up_to: exactUpTo,
          model,
          delta_id: 'bench',
          project_id: tenant.projectId,
          threshold: 0.95,
        }),
      );
    const audits = { exact: [] as number[], index: [] as number[] };
    for (let round = 0; round < 6; round += 1) {
      const [exact] = await timed(() => audit(ids.length));
      const [index] = await timed(() => audit(0));
      if (round === 0) continue;
      audits.exact.push(exact);
      audits.index.push(index);
    }
    const samples = { trip: [] as number[], exact: [] as number[], index: [] as number[], service: [] as number[] };
    for (let round = 0; round < ROUNDS; round += 1)
      for (const vector of questions) {
        const [trip] = await timed(() => graph.read((tx) => tx.runText('RETURN 1 AS one')));
        const [exact] = await timed(() => read(ids.length, vector));
        const [index] = await timed(() => read(0, vector));
        const [served] = await timed(() => read(EXACT_UP_TO, vector));
        if (round === 0) continue;
        samples.service.push(served);
        samples.trip.push(trip);
        samples.exact.push(exact);
        samples.index.push(index);
      }
    const line = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(1)} p95 ${percentile(xs, 95).toFixed(1)}`;
    console.log(
      `${ids.length} memories: exact ${line(samples.exact)} | index ${line(samples.index)} | ` +
        `as served (exact_up_to ${EXACT_UP_TO}) ${line(samples.service)} | ` +
        `round trip ${line(samples.trip)} (ms)`,
    );
    console.log(
      `${ids.length} memories, preflight of 100 new memories: exact ${line(audits.exact)} | ` +
        `index ${line(audits.index)} (ms)`,
    );
  }
} finally {
  await env.stop();
}
