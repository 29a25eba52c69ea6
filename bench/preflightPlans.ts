// What planning costs a preflight audit, and what the plan keeper saves: npx tsx bench/preflightPlans.ts
// A staged delta of one fact memory; then, five times, the graph is doubled (memories with a subject
// entity, and change records: the labels the checks read) and, after Neo4j's minimum replan interval
// (10 s), the audit's checks run in one read transaction each:
//   kept     as requests run them before the keeper has moved (the plan set made for the old size);
//   default  as requests ran them before plan sets (Neo4j plans again, in the request, when statistics moved);
// then the keeper's round (planning the new set, off the request path) is timed, and the checks run
// once more on the new set (moved). One JSON line per round.
import os from 'node:os';
import { preflightCheckFiles, preflightChecks, runChecks, type Check } from '../src/preflight/checks.js';
import { benchTenant, startBench, timed } from './support.js';

const ROUNDS = 5;
const REPLAN_INTERVAL_MS = 11_000;

async function main(): Promise<void> {
  const began = Date.now();
  const loadBefore = os.loadavg()[0]!;
  const env = await startBench('preflight-plans', { neo4j: 57887, temporal: 57833 });
  try {
    const graph = env.service.deps.graph;
    await env.service.preflightPlans.stop(); // this bench decides when the keeper runs
    await env.service.preflightPlans.tick();
    const tenant = await benchTenant(env.service);
    const staged = await fetch(`${env.service.url}/v1/memories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        content: 'Ada works at Acme.',
        subject: 'Ada',
        predicate: 'works at',
        object: 'Acme',
        apply: false,
      }),
    });
    const deltaId = ((await staged.json()) as { delta_id: string }).delta_id;
    const audit = async (checks: Check[]) => {
      const [ms] = await timed(() =>
        graph.read((tx) => runChecks(tx, deltaId, tenant.projectId, new Date().toISOString(), checks)),
      );
      return ms;
    };
    await audit(preflightChecks());
    for (let round = 1; round <= ROUNDS; round += 1) {
      const [size] = await graph.read((tx) => tx.runText('MATCH (n) RETURN count(n) AS n'));
      const grow = Math.max(5_000, Number(size?.n ?? 0));
      await graph.write((tx) =>
        tx.runText(
          'UNWIND range(1, $n) AS i CREATE (:Memory:BenchGrowth {kind: "fact"})-[:HAS_SUBJECT]->(:Entity:BenchGrowth), (:Change:BenchGrowth {op: "update_node"})',
          { n: Math.ceil(grow / 3) },
        ),
      );
      await new Promise((r) => setTimeout(r, REPLAN_INTERVAL_MS));
      const [after] = await graph.read((tx) => tx.runText('MATCH (n) RETURN count(n) AS n'));
      const kept = await audit(preflightChecks());
      const replanned = await audit(preflightCheckFiles());
      const [keeper, reason] = await timed(() => env.service.preflightPlans.tick());
      const moved = await audit(preflightChecks());
      const line = {
        round,
        nodes: Number(after?.n ?? 0),
        kept_ms: kept,
        default_ms: replanned,
        keeper_ms: keeper,
        moved_ms: moved,
      };
      const figures = Object.fromEntries(Object.entries(line).map(([k, v]) => [k, Math.round(v)]));
      console.log(JSON.stringify({ ...figures, keeper: reason, plan_set: env.service.preflightPlans.current() }));
    }
  } finally {
    await env.stop();
  }
  console.log(
    `Total ${((Date.now() - began) / 1000).toFixed(0)} s on ${os.cpus().length} cores; load average ${loadBefore.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end. Command: npx tsx bench/preflightPlans.ts`,
  );
}

await main();
