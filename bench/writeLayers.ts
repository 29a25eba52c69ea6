// Where a single memory write spends its time, layer by layer, in one run on one instance (issue 27):
// the raw driver's auto-commit CREATE of the same node (what the gauntlet compares with), the same CREATE
// in an explicit transaction (BEGIN, RUN, COMMIT: what every service write pays), the key lookup
// (authentication, one read per request), the in-process governed write (createMemories: the delta, its
// change records and the outbox, one transaction), and the HTTP request (authentication, validation, JSON).
// Run: npx tsx bench/writeLayers.ts [--memories 20000] [--samples 200]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 30687). Prints one JSON line per layer; asserts nothing.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { benchTenant, percentile, startBench, timed, words } from './support.js';
import { tenantToken } from '../src/db/tenant.js';
import { createMemories } from '../src/memories/service.js';
import { MEMORY_SHAPE_ID } from '../src/shapes/types.js';
import { verifyKey } from '../src/auth/keys.js';

const { values } = parseArgs({
  options: { memories: { type: 'string', default: '20000' }, samples: { type: 'string', default: '200' } },
});
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 30687);
const env = await startBench('write-layers', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
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
  const content = () => `${words((serial += 1) + 7e6, 10)}.`;
  // The graph at size first, through the API (batches of 100).
  for (let have = 0; have < Number(values.memories); have += 100) {
    const memories = Array.from({ length: 100 }, () => ({ content: content(), kind: 'fact' }));
    const r = await fetch(`${service.url}/v1/memories`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ memories }),
    });
    if (r.status !== 201) throw new Error(`create answered ${r.status}`);
  }
  const create =
    'CREATE (m:Knowledge:Memory {id: $id, project_id: $p, content: $content, name: $name, kind: "fact", ' +
    'scope: "project", memory_schema: "gks.memory/v1", shape_id: $shape, date_observed: date(), tenant: $tenant, ' +
    'created_at: datetime(), updated_at: datetime()})';
  const rawParams = () => {
    const c = content();
    return {
      id: crypto.randomUUID(),
      p: t.projectId,
      content: c,
      name: c.split(' ').slice(0, 8).join(' '),
      shape: MEMORY_SHAPE_ID,
      tenant: tenantToken(t.projectId),
    };
  };
  const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: 'bench', requestId: 'bench' };
  const layers: Record<string, () => Promise<unknown>> = {
    raw_autocommit_create: () => driver.executeQuery(create, rawParams()),
    raw_explicit_tx_create: async () => {
      const session = driver.session();
      try {
        await session.executeWrite((tx) => tx.run(create, rawParams()));
      } finally {
        await session.close();
      }
    },
    key_lookup: () => verifyKey(service.deps.graph, t.key),
    service_governed_write: () =>
      createMemories(
        { graph: service.deps.graph },
        actor,
        [{ input: { content: content(), kind: 'fact' }, field: '/body' }],
        {
          apply: true,
          shapeId: MEMORY_SHAPE_ID,
        },
      ),
    http_single_write: () =>
      fetch(`${service.url}/v1/memories`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: content(), kind: 'fact' }),
      }).then((r) => r.json()),
    http_healthz: () => fetch(`${service.url}/healthz`).then((r) => r.text()),
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(layers).map((k) => [k, []]));
  // Layers interleaved request by request, so load falls on all alike; the first 20 rounds warm up.
  for (let i = 0; i < Number(values.samples) + 20; i += 1) {
    for (const [name, run] of Object.entries(layers)) {
      const [ms] = await timed(run);
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
