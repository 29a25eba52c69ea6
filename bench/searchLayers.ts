// Where a lexical memory search spends its time, layer by layer, in one run on one instance: the
// search statement through the raw driver, a trivial statement (the floor of one transaction), the
// edges statement, the in-process service (search + edges transactions), and the HTTP request
// (authentication, validation, JSON) beside /healthz (the floor of one HTTP request).
// Run: npx tsx bench/searchLayers.ts [--memories 20000] [--samples 300]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 29687). Prints one JSON line per layer; asserts nothing.
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { benchTenant, percentile, startBench, timed, words } from './support.js';
import { cypher } from '../src/db/cypher.js';
import { luceneQuery } from '../src/db/tenant.js';
import { recallMemories } from '../src/memories/recall.js';

const { values } = parseArgs({
  options: { memories: { type: 'string', default: '20000' }, samples: { type: 'string', default: '300' } },
});
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 29687);
const env = await startBench('layers', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
const { service, endpoints } = env;
const auth = endpoints.neo4jAuth ?? {
  user: service.deps.config.neo4j.user,
  password: service.deps.config.neo4j.password,
};
const driver = neo4j.driver(endpoints.neo4jUri, neo4j.auth.basic(auth.user, auth.password));
try {
  const t = await benchTenant(service);
  const headers = { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' };
  let serial = 0;
  for (let have = 0; have < Number(values.memories); have += 100) {
    const memories = Array.from({ length: 100 }, () => ({
      content: `${words((serial += 1) + 7e6, 10)}.`,
      kind: 'fact',
    }));
    const r = await fetch(`${service.url}/v1/memories`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ memories }),
    });
    if (r.status !== 201) throw new Error(`create answered ${r.status}`);
  }
  const search = cypher('memories/search');
  const edges = cypher('memories/edges');
  const question = (i: number) => words(i + 9e6, 2);
  const read = { routing: neo4j.routing.READ };
  const layers: Record<string, (i: number) => Promise<unknown>> = {
    raw_search_statement: (i) => {
      const now = new Date().toISOString();
      const lucene = luceneQuery(question(i), t.projectId);
      const params = { project_id: t.projectId, now, valid_at: now, kinds: null, limit: 60, candidates: 60, lucene };
      return driver.executeQuery(search, params, read);
    },
    raw_trivial_statement: () => driver.executeQuery('RETURN 1', {}, read),
    raw_edges_statement: () => driver.executeQuery(edges, { ids: ['a', 'b'] }, read),
    service_recall: (i) =>
      recallMemories({ graph: service.deps.graph, embedder: null }, t.projectId, {
        query: question(i),
        limit: 10,
        mode: 'lexical',
        kinds: undefined,
      }),
    http_search: (i) =>
      fetch(`${service.url}/v1/memories/search`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: question(i), limit: 10, mode: 'lexical' }),
      }).then((r) => r.json()),
    http_healthz: () => fetch(`${service.url}/healthz`).then((r) => r.text()),
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(layers).map((k) => [k, []]));
  // Layers interleaved request by request, so load falls on all alike; the first 20 rounds warm up.
  for (let i = 0; i < Number(values.samples) + 20; i += 1) {
    for (const [name, run] of Object.entries(layers)) {
      const [ms] = await timed(() => run(i));
      if (i >= 20) samples[name]?.push(ms);
    }
  }
  for (const [layer, s] of Object.entries(samples))
    console.log(
      JSON.stringify({ layer, p50_ms: +percentile(s, 50).toFixed(2), p95_ms: +percentile(s, 95).toFixed(2) }),
    );
} finally {
  await driver.close();
  await env.stop();
}
