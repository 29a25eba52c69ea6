// Where a single memory write spends its time, layer by layer, in one run on one instance (issue 27):
// the raw driver's executeQuery of the same node's CREATE (a managed transaction: what the gauntlet compares with),
// the same CREATE as an auto-commit transaction (RUN and PULL only: what a governed write of new nodes sends since
// issue 58, Graph.writeAlone) and in an explicit transaction (BEGIN, RUN, COMMIT), the key lookup
// (authentication of a key not yet known; a known key's standing is read in the write's own transaction
// instead, src/auth/keys.ts), the in-process governed write (createMemories: the delta, its change records
// in one transaction), and the HTTP request (authentication, validation, JSON); the same request to a project
// from before the webhook endpoint count (its writes send the outbox statement, webhooks/emit, as every write did
// before: docs/webhooks.md), so the statement's cost is read in the same run. Then the same three layers for a
// batch of 100 memories: the raw driver's UNWIND of the gauntlet's batch, the in-process governed write and the
// HTTP request (docs/performance.md, "Writes").
// Run: npx tsx bench/writeLayers.ts [--memories 20000] [--samples 200]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 30687). Prints one JSON line per layer; asserts nothing.
import {
  benchTenant,
  fillText,
  measureLayers,
  RAW_MEMORY_CREATE,
  rawCreateMemories,
  rawMemoryParams,
  rawMemoryRow,
  startLayerBench,
} from './support.js';
import { createMemories } from '../src/memories/service.js';
import { MEMORY_SHAPE_ID } from '../src/shapes/types.js';
import { verifyKey } from '../src/auth/keys.js';

const bench = await startLayerBench('write-layers', 30687, 200);
const { driver, headers, tenant: t } = bench;
const { service } = bench.env;
try {
  const legacy = await benchTenant(service);
  await driver.executeQuery('MATCH (p:TenantProject {id: $p}) REMOVE p.webhook_endpoints', { p: legacy.projectId });
  const legacyHeaders = { Authorization: `Bearer ${legacy.key}`, 'Content-Type': 'application/json' };
  let serial = bench.serial;
  const content = () => fillText((serial += 1));
  const rawParams = () => rawMemoryParams(t.projectId, rawMemoryRow(content()));
  const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: 'bench', requestId: 'bench' };
  const layers: Record<string, (i: number) => Promise<unknown>> = {
    // executeQuery is a managed transaction (BEGIN, RUN, COMMIT): what the gauntlet's raw side runs.
    raw_execute_query_create: () => driver.executeQuery(RAW_MEMORY_CREATE, rawParams()),
    // The same CREATE as an auto-commit transaction (RUN and PULL only): what a governed write of new nodes sends
    // (Graph.writeAlone), the floor of one statement.
    raw_autocommit_create: async () => {
      const session = driver.session();
      try {
        await session.run(RAW_MEMORY_CREATE, rawParams());
      } finally {
        await session.close();
      }
    },
    raw_explicit_tx_create: async () => {
      const session = driver.session();
      try {
        await session.executeWrite((tx) => tx.run(RAW_MEMORY_CREATE, rawParams()));
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
    http_single_write_outbox: () =>
      fetch(`${service.url}/v1/memories`, {
        method: 'POST',
        headers: legacyHeaders,
        body: JSON.stringify({ content: content(), kind: 'fact' }),
      }).then((r) => r.json()),
    http_healthz: () => fetch(`${service.url}/healthz`).then((r) => r.text()),
    raw_batch100: () =>
      rawCreateMemories(
        driver,
        t.projectId,
        Array.from({ length: 100 }, () => rawMemoryRow(content())),
      ),
    service_governed_batch100: () =>
      createMemories(
        { graph: service.deps.graph },
        actor,
        Array.from({ length: 100 }, (_, i) => ({
          input: { content: content(), kind: 'fact' as const },
          field: `/body/memories/${i}`,
        })),
        { apply: true, shapeId: MEMORY_SHAPE_ID },
      ),
    http_batch100: () =>
      fetch(`${service.url}/v1/memories`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ memories: Array.from({ length: 100 }, () => ({ content: content(), kind: 'fact' })) }),
      }).then((r) => r.json()),
  };
  await measureLayers(layers, bench.samples);
} finally {
  await bench.stop();
}
