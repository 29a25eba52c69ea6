// Issue 6 benchmarks: loop start latency (API call until the workflow's first activity runs) and
// the events endpoint on a 1,000-event history. Extraction throughput: bench/extraction.ts.
// Run: npx tsx bench/loops.ts   (own Neo4j and Temporal dev server on 24687/24233)
import { benchTenant, fmt, percentile, startBench, timed } from './support.js';
import { readHistory } from '../src/loops/history.js';
import type { LoopInput } from '../src/loops/types.js';

const env = await startBench('loops', { neo4j: 24687, temporal: 24233 }, { temporal: true });
const { service } = env;
const tenant = await benchTenant(service);
const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${service.url}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  return (await r.json()) as Record<string, unknown>;
};
const client = await service.deps.temporal.getClient();
const namespace = service.deps.config.temporal.namespace;

await api('POST', '/v1/memories', { content: 'Benchmarks run on two cores.', kind: 'fact' });

console.log('\n== loop start latency (POST /v1/loops until the first activity has started) ==');
const responses: number[] = [];
const running: number[] = [];
for (let i = 0; i < 20; i += 1) {
  const began = performance.now();
  const [ms, body] = await timed(() =>
    api('POST', '/v1/loops', { kind: 'hydrate', goal: 'benchmarks on cores', loop: { max_iterations: 1 } }),
  );
  responses.push(ms);
  const workflowId = `loop-${String(body.loop_id)}`;
  for (;;) {
    const events = await readHistory(client, namespace, workflowId);
    if (events.some((e) => e.activityTaskStartedEventAttributes)) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  running.push(performance.now() - began);
  await client.workflow.getHandle(workflowId).result();
}
console.log(`API answer 202             p50 ${fmt(percentile(responses, 50))}  p95 ${fmt(percentile(responses, 95))}`);
console.log(`until first activity runs  p50 ${fmt(percentile(running, 50))}  p95 ${fmt(percentile(running, 95))}`);

console.log('\n== events endpoint on a 1,000-event history ==');
// A hydrate loop of 170 iterations (past the API's bound of 10) started directly, for a long history.
const started = (await api('POST', '/v1/loops', {
  kind: 'hydrate',
  goal: 'benchmarks',
  loop: { max_iterations: 1 },
})) as { loop_id: string; delta_id: string };
await client.workflow.getHandle(`loop-${started.loop_id}`).result();
const long = `loop-${started.loop_id}-long`;
const input: LoopInput = {
  loopId: started.loop_id,
  kind: 'hydrate',
  projectId: tenant.projectId,
  organizationId: tenant.organizationId,
  deltaId: started.delta_id,
  keyId: 'bench',
  goal: 'benchmarks',
  subject: null,
  sourceIds: [],
  shapeIds: [],
  effort: 'agentic',
  maxIterations: 170,
  qualityThreshold: 2,
  extractor: 'builtin',
  creditsReserved: 0,
  creditsPerIteration: 0,
};
// Record the long run under the loop's id so the endpoint reads it: point the loop at it.
await service.deps.graph.write((tx) =>
  tx.runText('MATCH (l:Loop {id: $id}) SET l.workflow_id = $wf', { id: started.loop_id, wf: long }),
);
await client.workflow.execute('hydrateLoop', {
  taskQueue: service.deps.config.temporal.taskQueue,
  workflowId: long,
  args: [input],
});
const history = await readHistory(client, namespace, long);
console.log(`history length: ${history.length} events (workflow ${long})`);
for (const [label, query] of [
  ['limit 100 from the start', 'limit=100'],
  ['limit 100 after 900', 'after_sequence=900&limit=100'],
  ['limit 1000 (whole history)', 'limit=1000'],
] as const) {
  const samples: number[] = [];
  for (let i = 0; i < 30; i += 1)
    samples.push((await timed(() => api('GET', `/v1/loops/${started.loop_id}/events?${query}`)))[0]);
  console.log(
    `GET events ${label.padEnd(28)} p50 ${fmt(percentile(samples, 50))}  p95 ${fmt(percentile(samples, 95))}`,
  );
}
await env.stop();
