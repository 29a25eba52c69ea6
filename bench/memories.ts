// Issue 3 benchmarks: memory create (single, batch of 100) through the API versus the same writes
// made directly with neo4j-driver in one UNWIND statement; search p50/p95 at 10k and 100k memories.
// Run: npx tsx bench/memories.ts   (own Neo4j on 21687, or NEO4J_URI)
import crypto from 'node:crypto';
import { tenantToken } from '../src/db/tenant.js';
import { benchTenant, fmt, percentile, startBench, timed, words } from './support.js';

const env = await startBench('memories', { neo4j: 21687, temporal: 21233 });
const { service } = env;
const graph = service.deps.graph;
const tenant = await benchTenant(service);
const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
const post = async (path: string, body: unknown) => {
  const r = await fetch(`${service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await r.json()) as Record<string, unknown>;
  if (r.status >= 300) throw new Error(`${path} ${r.status} ${JSON.stringify(json)}`);
  return json;
};

/** The same memory node the API writes, created directly (no delta, no HTTP). */
async function directWrite(count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    content: `${words(i, 10)}.`,
    name: words(i, 6),
  }));
  await graph.write((tx) =>
    tx.runText(
      `UNWIND $rows AS row
       CREATE (m:Knowledge:Memory {id: row.id, project_id: $p, content: row.content, name: row.name, kind: 'fact', scope: 'project',
         memory_schema: 'gks.memory/v1', shape_id: $shape, date_observed: date(), tenant: $tenant, created_at: datetime(), updated_at: datetime()})`,
      {
        rows,
        p: tenant.projectId,
        tenant: tenantToken(tenant.projectId),
        shape: '5e1f0000-0000-4000-8000-000000000001',
      },
    ),
  );
}

async function measure(label: string, runs: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 5; i += 1) await fn(-1 - i); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) samples.push((await timed(() => fn(i)))[0]);
  console.log(
    `${label.padEnd(44)} p50 ${fmt(percentile(samples, 50)).padStart(9)}  p95 ${fmt(percentile(samples, 95)).padStart(9)}`,
  );
  return samples;
}

console.log('\n== memory create ==');
const single = await measure('API   POST /v1/memories (1 memory)', 200, (i) =>
  post('/v1/memories', { content: `${words(i + 1e6, 10)}.`, kind: 'fact' }),
);
const singleDirect = await measure('direct UNWIND CREATE (1 memory)', 200, () => directWrite(1));
const batch = await measure('API   POST /v1/memories (batch of 100)', 30, (i) =>
  post('/v1/memories', {
    memories: Array.from({ length: 100 }, (_, j) => ({ content: `${words(i * 100 + j + 2e6, 10)}.`, kind: 'fact' })),
  }),
);
const batchDirect = await measure('direct UNWIND CREATE (100 memories)', 30, () => directWrite(100));
const rate = (s: number[]) => 100 / (percentile(s, 50) / 1000);
console.log(
  `single create p50 ratio API/direct: ${(percentile(single, 50) / percentile(singleDirect, 50)).toFixed(2)}x, p95 ratio ${(percentile(single, 95) / percentile(singleDirect, 95)).toFixed(2)}x`,
);
console.log(
  `batch of 100: API ${rate(batch).toFixed(0)} memories/s, direct ${rate(batchDirect).toFixed(0)} memories/s, ratio ${(rate(batchDirect) / rate(batch)).toFixed(2)}x (target <= 2x)`,
);

async function fill(target: number): Promise<void> {
  const [row] = await graph.read((tx) =>
    tx.runText('MATCH (m:Memory {project_id: $p}) RETURN count(m) AS n', { p: tenant.projectId }),
  );
  let have = Number(row?.n ?? 0);
  while (have < target) {
    const n = Math.min(10_000, target - have);
    await directWrite(n);
    have += n;
  }
  await graph.read((tx) => tx.runText('CALL db.awaitIndexes(600)'));
}

for (const size of [10_000, 100_000]) {
  await fill(size);
  console.log(`\n== search with ${size.toLocaleString('en')} memories in the project ==`);
  await measure(`API   POST /v1/memories/search (limit 10)`, 300, (i) =>
    post('/v1/memories/search', { query: words(i + 5e6, 2), limit: 10 }),
  );
}
await env.stop();
