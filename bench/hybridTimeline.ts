// Where one memory search's (or /v1/search's, or a context compile's: --route) time goes inside the request, with a vector on every memory: the question's
// embedding and each statement, by when it starts and ends after the request was sent (p50 over the counted
// requests), so what waits for what is read off directly. Fills --memories memories through the API, gives each
// a perturbed copy of a real vector (bench/vectors.ts), waits until the engine is idle (its index merges done),
// then sends --requests searches of 2 new words each (the first 100 not counted). Timing wraps the service's
// Graph reads and the embedder in this process; nothing else is changed.
// Run: npx tsx bench/hybridTimeline.ts [--memories 50000] [--mode hybrid|semantic|lexical] [--requests 300]
//   [--route memories|search|compile]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 33687). It asserts nothing.
import { parseArgs } from 'node:util';
import { Graph, Tx } from '../src/db/graph.js';
import {
  awaitEngineIdle,
  benchEmbeddings,
  benchTenant,
  fillMemories,
  percentile,
  startBench,
  words,
} from './support.js';
import { fillPool, memoryIds, writeVectors } from './vectors.js';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '50000' },
    mode: { type: 'string', default: 'hybrid' },
    requests: { type: 'string', default: '300' },
    route: { type: 'string', default: 'memories' },
  },
});
const WARMUP = 100;
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 33687);
const env = await startBench('hybrid-timeline', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
try {
  const { service } = env;
  const runtime = benchEmbeddings(service);
  await runtime.worker?.stop(); // the bench writes every vector itself
  const tenant = await benchTenant(service);
  await fillMemories(service.url, tenant.key, Number(values.memories));
  const pool = await fillPool(runtime.embedder, 256);
  const ids = await memoryIds(service.deps.graph, tenant.projectId);
  await writeVectors(service.deps.graph, ids, pool, runtime.embedder.model.id, { seed: 1, batch: 2_000 });
  process.stderr.write(`  engine idle after ${await awaitEngineIdle(env)} s\n`);

  // Each wrapped call notes [what, started, ended], in ms after the request was sent.
  let sentAt = 0;
  let events: [string, number, number][] = [];
  const timedCall = <A extends unknown[], R>(what: (args: A) => string, fn: (...args: A) => Promise<R>) =>
    async function (this: unknown, ...args: A): Promise<R> {
      const started = performance.now() - sentAt;
      try {
        return await fn.apply(this, args);
      } finally {
        events.push([what(args), started, performance.now() - sentAt]);
      }
    };
  // An auto-commit read of a named statement (Graph.readRows), by its name.
  const graphProto = Graph.prototype as unknown as {
    readRows: (name: string, ...rest: unknown[]) => Promise<unknown>;
  };
  graphProto.readRows = timedCall(([name]) => String(name), graphProto.readRows);
  // A statement of a read transaction (Graph.read), by its name too.
  const txProto = Tx.prototype as unknown as { run: (name: string, ...rest: unknown[]) => Promise<unknown> };
  txProto.run = timedCall(([name]) => `${String(name)} (in a transaction)`, txProto.run);
  const embedder = runtime.embedder;
  embedder.embedQueries = timedCall(() => 'embed the question', embedder.embedQueries.bind(embedder));

  const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
  const spans = new Map<string, { start: number[]; end: number[]; took: number[] }>();
  const totals: number[] = [];
  for (let i = 0; i < Number(values.requests); i += 1) {
    events = [];
    sentAt = performance.now();
    const query = words(i + 9e6, 2);
    const [path, body] =
      values.route === 'compile'
        ? ['/v1/context/compile', { query, slice: { budget: { max_tokens: 2000 } } }]
        : [values.route === 'search' ? '/v1/search' : '/v1/memories/search', { query, limit: 10, mode: values.mode }];
    const r = await fetch(`${service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    await r.json();
    if (i < WARMUP) continue;
    totals.push(performance.now() - sentAt);
    const seen = new Map<string, number>();
    for (const [what, start, end] of events) {
      const n = (seen.get(what) ?? 0) + 1;
      seen.set(what, n);
      const key = n > 1 ? `${what} (#${n})` : what;
      const span = spans.get(key) ?? { start: [], end: [], took: [] };
      span.start.push(start);
      span.end.push(end);
      span.took.push(end - start);
      spans.set(key, span);
    }
  }
  const ms = (samples: number[], p: number) => Number(percentile(samples, p).toFixed(1));
  const asked = { route: values.route, mode: values.route === 'compile' ? 'hybrid' : values.mode };
  console.log(JSON.stringify({ figure: 'request_ms', ...asked, p50: ms(totals, 50), p95: ms(totals, 95) }));
  for (const [what, s] of [...spans.entries()].sort((a, b) => ms(a[1].start, 50) - ms(b[1].start, 50)))
    console.log(
      JSON.stringify({
        span: what,
        count: s.took.length,
        start_p50: ms(s.start, 50),
        end_p50: ms(s.end, 50),
        took_p50: ms(s.took, 50),
        took_p95: ms(s.took, 95),
      }),
    );
} finally {
  await env.stop();
}
