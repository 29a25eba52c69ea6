// Issue 23: the cost of valid time on reads. Memory search (lexical, so the figure is the graph's,
// not the embedding engine's) and the graph neighbourhood, each with as_of and without, measured in
// the same run on the same graph, interleaved call by call so machine load falls on both alike.
//
// Data: N fact memories (default 100k) of one project, each with its fact edge between two of 1000
// entities (about 200 edges per entity), 10% superseded (valid_to in the past, as a supersede leaves
// them), all with a valid_from. Seeded straight through Cypher in the shape the service writes, so
// the fill takes minutes instead of hours of governed writes. A second project holds 20% more.
// Run: npx tsx bench/asOf.ts [--memories 100000] [--rounds 60]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 22687; the engine on +5). It asserts nothing.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Graph } from '../src/db/graph.js';
import { tenantToken } from '../src/db/tenant.js';
import { benchTenant, fmt, percentile, startBench, timed } from './support.js';

const { values } = parseArgs({
  options: { memories: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '60' } },
});
const TOTAL = Number(values.memories);
const ROUNDS = Number(values.rounds);
const ENTITIES = 1000;
const BATCH = 5_000;
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 22687);
const WORDS = ['budget', 'roadmap', 'hiring', 'pricing', 'launch', 'incident', 'contract', 'vendor', 'audit', 'design'];

async function seed(graph: Graph, projectId: string, count: number): Promise<string[]> {
  const tenant = tenantToken(projectId);
  const entityIds = Array.from({ length: ENTITIES }, () => crypto.randomUUID());
  await graph.write((tx) =>
    tx.runText(
      `UNWIND range(0, size($ids) - 1) AS i
       CREATE (:Knowledge:Entity:Concept {id: $ids[i], project_id: $p, name: 'Entity ' + i, normalized_name: 'entity ' + i,
         type: 'Concept', created_at: datetime(), updated_at: datetime()})`,
      { ids: entityIds, p: projectId },
    ),
  );
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => {
      const i = start + k;
      const word = WORDS[i % WORDS.length]!;
      return {
        id: crypto.randomUUID(),
        content: `Team ${i % 97} works on the ${word} item number ${i}.`,
        s: entityIds[i % ENTITIES]!,
        o: entityIds[(i * 7 + 1) % ENTITIES]!,
        superseded: i % 10 === 0,
      };
    });
    await graph.write((tx) =>
      tx.runText(
        `UNWIND $rows AS r
         MATCH (s:Knowledge {id: r.s}) MATCH (o:Knowledge {id: r.o})
         CREATE (m:Knowledge:Memory {id: r.id, project_id: $p, tenant: $tenant, content: r.content, name: r.content,
           kind: 'fact', scope: 'project', memory_schema: 'gks.memory/v1', predicate: 'works with',
           subject_name: s.name, object_name: o.name, created_at: datetime(), updated_at: datetime(),
           valid_from: datetime('2020-01-01T00:00:00Z'),
           valid_to: CASE WHEN r.superseded THEN datetime('2023-01-01T00:00:00Z') END})
         CREATE (m)-[:HAS_SUBJECT {id: randomUUID(), project_id: $p, predicate: 'works with'}]->(s)
         CREATE (m)-[:HAS_OBJECT {id: randomUUID(), project_id: $p, predicate: 'works with'}]->(o)
         CREATE (s)-[:WORKS_WITH {id: randomUUID(), project_id: $p, memory_id: r.id,
           valid_from: datetime('2020-01-01T00:00:00Z'),
           valid_to: CASE WHEN r.superseded THEN datetime('2023-01-01T00:00:00Z') END}]->(o)`,
        { rows, p: projectId, tenant },
      ),
    );
    process.stderr.write(`\r  ${start + rows.length} memories`);
  }
  process.stderr.write('\n');
  return entityIds;
}

const env = await startBench('as-of', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
try {
  const { service } = env;
  const graph = service.deps.graph;
  const tenant = await benchTenant(service);
  const other = await benchTenant(service);
  console.log(`seeding ${TOTAL} fact memories with their edges, 10% superseded (+${Math.round(TOTAL / 5)} elsewhere)…`);
  const [seedMs, entityIds] = await timed(async () => {
    const ids = await seed(graph, tenant.projectId, TOTAL);
    await seed(graph, other.projectId, Math.round(TOTAL / 5));
    await graph.read((tx) => tx.runText('CALL db.awaitIndexes(1200)'));
    return ids;
  });
  console.log(`seeded and indexed in ${(seedMs / 1000).toFixed(1)} s`);
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<void> => {
    const r = await fetch(`${service.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${path} answered ${r.status}: ${text.slice(0, 300)}`);
  };
  const asOf = '2022-06-01T00:00:00Z';
  const reads: Record<string, (i: number) => Promise<void>> = {
    'memory search (lexical)': (i) =>
      call('POST', '/v1/memories/search', { query: WORDS[i % WORDS.length], mode: 'lexical', limit: 10 }),
    'memory search (lexical) as_of': (i) =>
      call('POST', '/v1/memories/search', { query: WORDS[i % WORDS.length], mode: 'lexical', limit: 10, as_of: asOf }),
    'neighbourhood depth 1': (i) => call('GET', `/v1/graph/nodes/${entityIds[(i * 13) % ENTITIES]}?depth=1`),
    'neighbourhood depth 1 as_of': (i) =>
      call('GET', `/v1/graph/nodes/${entityIds[(i * 13) % ENTITIES]}?depth=1&as_of=${asOf}`),
    'neighbourhood depth 2': (i) => call('GET', `/v1/graph/nodes/${entityIds[(i * 13) % ENTITIES]}?depth=2`),
    'neighbourhood depth 2 as_of': (i) =>
      call('GET', `/v1/graph/nodes/${entityIds[(i * 13) % ENTITIES]}?depth=2&as_of=${asOf}`),
  };
  for (let i = 0; i < 10; i += 1) for (const read of Object.values(reads)) await read(i);
  const samples = new Map<string, number[]>();
  for (let i = 0; i < ROUNDS; i += 1)
    for (const [name, read] of Object.entries(reads)) {
      const [ms] = await timed(() => read(i));
      samples.set(name, [...(samples.get(name) ?? []), ms]);
    }
  console.log(`\n${TOTAL} memories, ${ROUNDS} calls each (interleaved); ms`);
  for (const [name, xs] of samples)
    console.log(`${name.padEnd(34)} p50 ${fmt(percentile(xs, 50))}  p95 ${fmt(percentile(xs, 95))}`);
  for (const base of ['memory search (lexical)', 'neighbourhood depth 1', 'neighbourhood depth 2']) {
    const ratio = percentile(samples.get(`${base} as_of`)!, 95) / percentile(samples.get(base)!, 95);
    console.log(`${base}: p95 as_of / without = ${ratio.toFixed(2)}x`);
  }
} finally {
  await env.stop();
}
