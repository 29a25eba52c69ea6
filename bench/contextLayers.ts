// Where a context compile spends its time, layer by layer, in one run on one instance: the memory
// plane's full-text statement through the raw driver (at the compile's candidate count, and at
// search's; and with the tenant clause kept, src/db/fullText.ts), a trivial statement (the floor of one
// transaction), the three plane statements at once, the in-process gather (candidates only), the in-process
// compile (gather, rank, fit, render, hash), and the HTTP request beside /healthz (the floor of one HTTP request).
// Run: npx tsx bench/contextLayers.ts [--memories 20000] [--samples 300]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 30687). Prints one JSON line per layer; asserts nothing.
import neo4j from 'neo4j-driver';
import { measureLayers, startLayerBench, words } from './support.js';
import { cypher } from '../src/db/cypher.js';
import { luceneQuery } from '../src/db/tenant.js';
import { fullTextParams } from '../src/db/fullText.js';
import { gatherCandidates, perSourceLimit } from '../src/context/candidates.js';
import { compilePack } from '../src/context/compile.js';
import { normalizeDefinition } from '../src/slices/definition.js';

const bench = await startLayerBench('contextLayers', 30687, 300);
const { driver, headers, tenant: t } = bench;
const { service } = bench.env;
try {
  const question = (i: number) => words(i + 5e6, 3);
  const read = { routing: neo4j.routing.READ };
  const slice = { budget: { max_tokens: 2000 } };
  const def = normalizeDefinition(slice, '/body/slice');
  const limit = perSourceLimit(2000);
  const params = (i: number, candidates: number, bare: boolean) => {
    const now = new Date().toISOString();
    return {
      project_id: t.projectId,
      as_of: null,
      now,
      valid_at: now,
      unknown: [],
      changed: [],
      limit,
      ...fullTextParams(luceneQuery(question(i), t.projectId)!, t.projectId, bare),
      from: null,
      to: null,
      window_field: 'created_at',
      kinds: null,
      episode: null,
      document_ids: null,
      tags: null,
      types: null,
      shape_ids: null,
      candidates,
      standing: null, // no request's standing check to carry (src/db/graph.ts)
    };
  };
  const plane =
    (name: string, candidates: number, bare = true) =>
    (i: number) =>
      driver.executeQuery(cypher(`context/${name}_search`), params(i, candidates, bare), read);
  const deps = { graph: service.deps.graph, embedder: null };
  const layers: Record<string, (i: number) => Promise<unknown>> = {
    raw_trivial_statement: () => driver.executeQuery('RETURN 1', {}, read),
    raw_memory_plane: plane('memories', limit * 2 + 20),
    raw_memory_plane_160: plane('memories', limit + 20),
    raw_memory_plane_60: plane('memories', 60),
    raw_memory_plane_tenant: plane('memories', limit * 2 + 20, false),
    raw_three_planes: (i) => Promise.all(['memories', 'chunks', 'entities'].map((p) => plane(p, limit * 2 + 20)(i))),
    service_gather: (i) =>
      gatherCandidates(service.deps.graph, {
        projectId: t.projectId,
        def,
        query: question(i),
        asOf: null,
        now: new Date().toISOString(),
        question: null,
      }),
    service_compile: (i) =>
      compilePack(deps, { projectId: t.projectId, def, slice: null, query: question(i), mode: 'lexical' }),
    http_compile: (i) =>
      fetch(`${service.url}/v1/context/compile`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: question(i), slice }),
      }).then((r) => r.json()),
    http_healthz: () => fetch(`${service.url}/healthz`).then((r) => r.text()),
  };
  await measureLayers(layers, bench.samples);
} finally {
  await bench.stop();
}
