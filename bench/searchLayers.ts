// Where a lexical memory search spends its time, layer by layer, in one run on one instance: the
// search statement through the raw driver, a trivial statement (the floor of one transaction), the
// answered statement (the memories whole and their edges), the in-process service (search + answered), and the HTTP request
// (authentication, validation, JSON) beside /healthz (the floor of one HTTP request).
// Run: npx tsx bench/searchLayers.ts [--memories 20000] [--samples 300]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 29687). Prints one JSON line per layer; asserts nothing.
import neo4j from 'neo4j-driver';
import { measureLayers, startLayerBench, words } from './support.js';
import { cypher } from '../src/db/cypher.js';
import { luceneQuery } from '../src/db/tenant.js';
import { fullTextParams } from '../src/db/fullText.js';
import { recallMemories } from '../src/memories/recall.js';

const bench = await startLayerBench('layers', 29687, 300);
const { driver, headers, tenant: t } = bench;
const { service } = bench.env;
try {
  const search = cypher('memories/search');
  const answered = cypher('memories/answered');
  const question = (i: number) => words(i + 9e6, 2);
  const read = { routing: neo4j.routing.READ };
  const layers: Record<string, (i: number) => Promise<unknown>> = {
    raw_search_statement: (i) => {
      const now = new Date().toISOString();
      const lucene = luceneQuery(question(i), t.projectId);
      const params = {
        project_id: t.projectId,
        now,
        valid_at: now,
        kinds: null,
        limit: 60,
        candidates: 60,
        whole: false,
        around: false,
        per_node: 0,
      };
      return driver.executeQuery(search, { ...params, ...fullTextParams(lucene!, t.projectId), standing: null }, read);
    },
    raw_trivial_statement: () => driver.executeQuery('RETURN 1', {}, read),
    raw_answered_statement: () =>
      driver.executeQuery(answered, { ids: ['a', 'b'], known: [], project_id: t.projectId }, read),
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
  await measureLayers(layers, bench.samples);
} finally {
  await bench.stop();
}
