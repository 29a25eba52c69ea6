// Search latency over 100k chunks in one project: the document plane alone and all three planes
// fused (with 2k memories and 2k entities beside the chunks), through the service function and
// through POST /v1/search; a second project with 10k chunks shares the indexes.
// Setup writes directly with UNWIND (no deltas) for speed, in the shapes the service writes.
// Run: npx tsx bench/search.ts   (own Neo4j on 19687, or NEO4J_URI)
import crypto from 'node:crypto';
import type { Graph } from '../src/db/graph.js';
import { tenantToken } from '../src/db/tenant.js';
import { searchPlanes, type Plane } from '../src/search/service.js';
import { benchTenant, fmt, percentile, startBench, timed, words } from './support.js';

const CHUNKS = 100_000;
const CHUNKS_PER_DOCUMENT = 100;
const WORDS_PER_CHUNK = 100;
const BATCH = 5_000;
const QUERIES = 200;
const WARM_UP = 20;

async function seedChunks(graph: Graph, projectId: string, chunks: number, seed: number): Promise<void> {
  const tenant = tenantToken(projectId);
  for (let start = 0; start < chunks; start += BATCH) {
    const docs = Array.from({ length: BATCH / CHUNKS_PER_DOCUMENT }, (_, d) => {
      const docIndex = start / CHUNKS_PER_DOCUMENT + d;
      return {
        id: crypto.randomUUID(),
        title: `Document ${docIndex}`,
        chunks: Array.from({ length: CHUNKS_PER_DOCUMENT }, (_, i) => ({
          id: crypto.randomUUID(),
          index: i,
          text: `${words(seed * 10_000_019 + docIndex * CHUNKS_PER_DOCUMENT + i, WORDS_PER_CHUNK)}.`,
        })),
      };
    });
    await graph.write((tx) =>
      tx.runText(
        `UNWIND $docs AS doc
       CREATE (d:Knowledge:Document {id: doc.id, project_id: $p, tenant: $tenant, title: doc.title, type: 'text', tags: [], created_at: datetime(), updated_at: datetime()})
       WITH d, doc
       UNWIND doc.chunks AS x
       CREATE (c:Knowledge:Chunk {id: x.id, project_id: $p, tenant: $tenant, document_id: doc.id, index: x.index, text: x.text, created_at: datetime(), updated_at: datetime()})
       CREATE (d)-[:HAS_CHUNK {id: randomUUID(), project_id: $p}]->(c)`,
        { docs, p: projectId, tenant },
      ),
    );
    await graph.write((tx) =>
      tx.runText(
        `UNWIND $docs AS doc
       MATCH (d:Knowledge {id: doc.id})-[:HAS_CHUNK]->(c:Chunk)
       WITH d, c ORDER BY c.index
       WITH d, collect(c) AS cs
       UNWIND range(0, size(cs) - 2) AS i
       WITH cs[i] AS a, cs[i + 1] AS b
       CREATE (a)-[:NEXT {id: randomUUID(), project_id: $p}]->(b)`,
        { docs: docs.map((d) => ({ id: d.id })), p: projectId },
      ),
    );
    process.stderr.write(`\r  ${start + BATCH} chunks`);
  }
  process.stderr.write('\n');
}

async function seedMemoriesAndEntities(graph: Graph, projectId: string, count: number): Promise<void> {
  const tenant = tenantToken(projectId);
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    e: crypto.randomUUID(),
    content: `${words(7_000_003 + i, 14)}.`,
    name: words(9_000_011 + i, 2),
  }));
  await graph.write((tx) =>
    tx.runText(
      `UNWIND $rows AS r
     CREATE (m:Knowledge:Memory {id: r.id, project_id: $p, tenant: $tenant, content: r.content, name: r.content, kind: 'fact', scope: 'project', memory_schema: 'gks.memory/v1', created_at: datetime(), updated_at: datetime()})
     CREATE (e:Knowledge:Entity:Product {id: r.e, project_id: $p, tenant: $tenant, name: r.name, normalized_name: r.name, type: 'Product', created_at: datetime(), updated_at: datetime()})
     CREATE (m)-[:HAS_SUBJECT {id: randomUUID(), project_id: $p}]->(e)`,
      { rows, p: projectId, tenant },
    ),
  );
}

const env = await startBench('search', { neo4j: 19687, temporal: 19233 });
try {
  const { service } = env;
  const graph = service.deps.graph;
  const tenant = await benchTenant(service);
  const other = await benchTenant(service);
  console.log(
    `seeding ${CHUNKS} chunks (${CHUNKS / CHUNKS_PER_DOCUMENT} documents, ${WORDS_PER_CHUNK} words each) in one project, 10000 in another…`,
  );
  const [seedMs] = await timed(async () => {
    await seedChunks(graph, tenant.projectId, CHUNKS, 1);
    await seedChunks(graph, other.projectId, 10_000, 2);
    await seedMemoriesAndEntities(graph, tenant.projectId, 2_000);
    await graph.read((tx) => tx.runText('CALL db.awaitIndexes(600)'));
  });
  console.log(`seeded and indexed in ${(seedMs / 1000).toFixed(1)} s`);

  const queries = Array.from({ length: QUERIES + WARM_UP }, (_, i) => words(31_337 + i, 2));
  const measure = async (label: string, run: (query: string) => Promise<number>) => {
    for (const q of queries.slice(0, WARM_UP)) await run(q);
    const samples: number[] = [];
    let results = 0;
    for (const q of queries.slice(WARM_UP)) {
      const [ms, count] = await timed(() => run(q));
      samples.push(ms);
      results += count;
    }
    console.log(
      `${label.padEnd(52)} p50 ${fmt(percentile(samples, 50)).padStart(9)}  p95 ${fmt(percentile(samples, 95)).padStart(9)}  p99 ${fmt(percentile(samples, 99)).padStart(9)}  max ${fmt(Math.max(...samples)).padStart(9)}  (${(results / samples.length).toFixed(1)} results/query)`,
    );
  };
  const viaService = (planes: Plane[], limit: number) => async (query: string) =>
    (
      await searchPlanes({ graph, embedder: service.deps.embedder }, tenant.projectId, {
        query,
        planes,
        filters: {},
        limit,
      })
    ).nodes.length;
  const viaApi = (planes: Plane[], limit: number) => async (query: string) => {
    const r = await fetch(`${service.url}/v1/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, planes, limit }),
    });
    const body = (await r.json()) as { count: number };
    if (r.status !== 200) throw new Error(`search failed: ${JSON.stringify(body)}`);
    return body.count;
  };

  console.log(`\n== search over ${CHUNKS} chunks, ${QUERIES} two-word queries, ${WARM_UP} warm-up ==`);
  await measure('service, document plane, limit 10', viaService(['document'], 10));
  await measure('service, all planes fused, limit 10', viaService(['memory', 'document', 'entity'], 10));
  await measure('service, all planes fused, limit 100', viaService(['memory', 'document', 'entity'], 100));
  await measure('API POST /v1/search, document plane, limit 10', viaApi(['document'], 10));
  await measure('API POST /v1/search, all planes fused, limit 10', viaApi(['memory', 'document', 'entity'], 10));
} finally {
  await env.stop();
}
