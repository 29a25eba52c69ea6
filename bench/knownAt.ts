// Issue 23: the cost of transaction time (known_at) on reads. Memory search (lexical, so the figure
// is the graph's, not the embedding engine's) and the graph neighbourhood, each at a known_at before
// the last 10% of the project's deltas and without it, measured in the same run on the same graph,
// interleaved call by call so machine load falls on both alike.
//
// Data: one delta per write, as governed writes make them. N fact memories (default 20k), each made
// by its own applied delta (its :CREATED link and the create_relationship records of its three
// relationships), with its fact edge between two of 1000 entities; then N/9 more deltas (10% of all)
// applied after the moment read: half create new fact memories, a quarter change a memory's text
// (update_node records with old.<key> and new.<key>) and a quarter delete one (delete_node records
// with the node's snapshot and its relationships', and the fact edge's delete_relationship record).
// Seeded straight through Cypher in the shape the known_* statements read, so the fill takes
// seconds instead of hours of governed writes. A second project holds 20% more.
// Run: npx tsx bench/knownAt.ts [--memories 20000] [--rounds 40]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 22687; the engine on +5). It asserts nothing.
import crypto from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Graph } from '../src/db/graph.js';
import { tenantToken } from '../src/db/tenant.js';
import { benchTenant, fmt, percentile, startBench, timed } from './support.js';

const { values } = parseArgs({
  options: { memories: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '40' } },
});
const TOTAL = Number(values.memories);
const ROUNDS = Number(values.rounds);
const ENTITIES = 1000;
const BATCH = 2_000;
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 22687);
const WORDS = ['budget', 'roadmap', 'hiring', 'pricing', 'launch', 'incident', 'contract', 'vendor', 'audit', 'design'];
/** Deltas are a second apart, from this moment on (all in the past, so known_at reads the past). */
const START = Date.parse('2025-01-01T00:00:00Z');
const at = (i: number): string => new Date(START + i * 1000).toISOString();

interface Made {
  id: string;
  s: string;
  o: string;
  edge: string;
}

const CREATE = `
UNWIND $rows AS r
MATCH (s:Knowledge {id: r.s}) MATCH (o:Knowledge {id: r.o})
CREATE (d:Delta {id: r.delta, project_id: $p, status: 'applied', origin: 'api', summary: 'bench',
  created_at: datetime(r.at), applied_at: datetime(r.at), change_count: 4})
CREATE (m:Knowledge:Memory {id: r.id, project_id: $p, tenant: $tenant, delta_id: r.delta, content: r.content,
  name: r.content, kind: 'fact', scope: 'project', memory_schema: 'gks.memory/v1', predicate: 'works with',
  subject_name: s.name, object_name: o.name, created_at: datetime(r.at), updated_at: datetime(r.at),
  valid_from: datetime('2020-01-01T00:00:00Z')})
CREATE (d)-[:CREATED]->(m)
CREATE (m)-[:HAS_SUBJECT {id: r.h1, project_id: $p, delta_id: r.delta, predicate: 'works with'}]->(s)
CREATE (m)-[:HAS_OBJECT {id: r.h2, project_id: $p, delta_id: r.delta, predicate: 'works with'}]->(o)
CREATE (s)-[:WORKS_WITH {id: r.edge, project_id: $p, delta_id: r.delta, memory_id: r.id,
  valid_from: datetime('2020-01-01T00:00:00Z')}]->(o)
FOREACH (x IN [[r.h1, r.id, r.s], [r.h2, r.id, r.o], [r.edge, r.s, r.o]] |
  CREATE (d)-[:HAS_CHANGE]->(:Change {id: randomUUID(), delta_id: r.delta, seq: 0, op: 'create_relationship',
    relationship_id: x[0], from_id: x[1], to_id: x[2]}))`;

const UPDATE = `
UNWIND $rows AS r
MATCH (m:Knowledge {id: r.id})
CREATE (d:Delta {id: r.delta, project_id: $p, status: 'applied', origin: 'correction', summary: 'bench',
  created_at: datetime(r.at), applied_at: datetime(r.at), change_count: 1})
CREATE (d)-[:HAS_CHANGE]->(c:Change {id: randomUUID(), delta_id: r.delta, seq: 0, op: 'update_node', node_id: r.id,
  set_keys: ['content', 'name']})
SET c.\`new.content\` = r.content, c.\`new.name\` = r.content, c.\`old.content\` = m.content, c.\`old.name\` = m.name
CREATE (c)-[:TARGET]->(m)
SET m.content = r.content, m.name = r.content, m.updated_at = datetime(r.at)`;

const DELETE = `
UNWIND $rows AS r
MATCH (m:Knowledge {id: r.id})
MATCH (s:Knowledge {id: r.s})-[e:WORKS_WITH]->(o:Knowledge {id: r.o}) WHERE e.id = r.edge
CREATE (d:Delta {id: r.delta, project_id: $p, status: 'applied', origin: 'correction', summary: 'bench',
  created_at: datetime(r.at), applied_at: datetime(r.at), change_count: 2})
CREATE (d)-[:HAS_CHANGE]->(ce:Change {id: randomUUID(), delta_id: r.delta, seq: 0, op: 'delete_relationship',
  relationship_id: r.edge, type: 'WORKS_WITH', from_id: r.s, to_id: r.o, old_keys: keys(e)})
FOREACH (k IN keys(e) | SET ce['old.' + k] = e[k])
CREATE (d)-[:HAS_CHANGE]->(c:Change {id: randomUUID(), delta_id: r.delta, seq: 1, op: 'delete_node', node_id: r.id,
  old_labels: [l IN labels(m) WHERE l <> 'Knowledge'], old_keys: keys(m)})
FOREACH (k IN keys(m) | SET c['old.' + k] = m[k])
WITH m, c, e
CALL (m, c) {
  MATCH (m)-[rel]-(x:Knowledge)
  CREATE (c)-[:HAD_RELATIONSHIP]->(snap:RelationshipSnapshot {type: type(rel),
    direction: CASE WHEN startNode(rel) = m THEN 'out' ELSE 'in' END, other_id: x.id, other_is_delta: false,
    keys: keys(rel)})
  FOREACH (k IN keys(rel) | SET snap['prop.' + k] = rel[k])
}
DELETE e
DETACH DELETE m`;

/** Fills a project; returns its entity ids and the moment before its last 10% of deltas. */
async function seed(graph: Graph, projectId: string, count: number): Promise<{ entityIds: string[]; knownAt: string }> {
  const tenant = tenantToken(projectId);
  const entityIds = Array.from({ length: ENTITIES }, () => crypto.randomUUID());
  await graph.write((tx) =>
    tx.runText(
      `UNWIND range(0, size($ids) - 1) AS i
       CREATE (:Knowledge:Entity:Concept {id: $ids[i], project_id: $p, name: 'Entity ' + i, normalized_name: 'entity ' + i,
         type: 'Concept', created_at: datetime($at), updated_at: datetime($at)})`,
      { ids: entityIds, p: projectId, at: at(-1) },
    ),
  );
  const after = Math.round(count / 9);
  const made: Made[] = [];
  let delta = 0;
  const write = async (statement: string, rows: Record<string, unknown>[]) => {
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      await graph.write((tx) => tx.runText(statement, { rows: batch, p: projectId, tenant }));
    }
  };
  const creates = (n: number): Record<string, unknown>[] =>
    Array.from({ length: n }, () => {
      const i = made.length;
      const row = {
        id: crypto.randomUUID(),
        delta: crypto.randomUUID(),
        at: at(delta++),
        content: `Team ${i % 97} works on the ${WORDS[i % WORDS.length]!} item number ${i}.`,
        s: entityIds[i % ENTITIES]!,
        o: entityIds[(i * 7 + 1) % ENTITIES]!,
        h1: crypto.randomUUID(),
        h2: crypto.randomUUID(),
        edge: crypto.randomUUID(),
      };
      made.push({ id: row.id, s: row.s, o: row.o, edge: row.edge });
      return row;
    });
  await write(CREATE, creates(count));
  process.stderr.write(`  ${count} memories before the moment\n`);
  const knownAt = new Date(START + (delta - 0.5) * 1000).toISOString();
  // The last 10%: creates, text changes and deletions, interleaved in time.
  const updates: Record<string, unknown>[] = [];
  const deletes: Record<string, unknown>[] = [];
  const later: Record<string, unknown>[] = [];
  const touched = new Set<string>();
  for (let k = 0; k < after; k += 1) {
    // Each changed or deleted memory is touched once, so the history stays one a service could write.
    let n = (k * 7919) % count;
    while (touched.has(made[n]!.id)) n = (n + 1) % count;
    const target = made[n]!;
    if (k % 4 === 1) {
      touched.add(target.id);
      const word = WORDS[(k + 3) % WORDS.length]!;
      updates.push({
        id: target.id,
        delta: crypto.randomUUID(),
        at: at(delta++),
        content: `Reworked ${word} plan ${k}.`,
      });
    } else if (k % 4 === 3) {
      touched.add(target.id);
      deletes.push({ ...target, delta: crypto.randomUUID(), at: at(delta++) });
    } else later.push(...creates(1));
  }
  // One write per kind (each record carries its own applied_at, so the order of writing does not matter).
  await write(CREATE, later);
  await write(UPDATE, updates);
  await write(DELETE, deletes);
  process.stderr.write(
    `  ${after} deltas after it (${later.length} creates, ${updates.length} changes, ${deletes.length} deletions)\n`,
  );
  return { entityIds, knownAt };
}

const env = await startBench('known-at', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
try {
  const { service } = env;
  const graph = service.deps.graph;
  const tenant = await benchTenant(service);
  const other = await benchTenant(service);
  console.log(`seeding ${TOTAL} fact memories, one delta each, then 10% more deltas (+20% in another project)…`);
  const [seedMs, seeded] = await timed(async () => {
    const mine = await seed(graph, tenant.projectId, TOTAL);
    await seed(graph, other.projectId, Math.round(TOTAL / 5));
    await graph.read((tx) => tx.runText('CALL db.awaitIndexes(1200)'));
    return mine;
  });
  const { entityIds, knownAt } = seeded;
  console.log(`seeded and indexed in ${(seedMs / 1000).toFixed(1)} s; known_at ${knownAt}`);
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<void> => {
    const r = await fetch(`${service.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${path} answered ${r.status}: ${text.slice(0, 300)}`);
  };
  const k = encodeURIComponent(knownAt);
  const node = (i: number) => entityIds[(i * 13) % ENTITIES]!;
  const search = (i: number) => ({ query: WORDS[i % WORDS.length], mode: 'lexical', limit: 10 });
  const reads: Record<string, (i: number) => Promise<void>> = {
    'memory search (lexical)': (i) => call('POST', '/v1/memories/search', search(i)),
    'memory search (lexical) known_at': (i) => call('POST', '/v1/memories/search', { ...search(i), known_at: knownAt }),
    'neighbourhood depth 1': (i) => call('GET', `/v1/graph/nodes/${node(i)}?depth=1`),
    'neighbourhood depth 1 known_at': (i) => call('GET', `/v1/graph/nodes/${node(i)}?depth=1&known_at=${k}`),
    'neighbourhood depth 2': (i) => call('GET', `/v1/graph/nodes/${node(i)}?depth=2`),
    'neighbourhood depth 2 known_at': (i) => call('GET', `/v1/graph/nodes/${node(i)}?depth=2&known_at=${k}`),
  };
  for (let i = 0; i < 5; i += 1) for (const read of Object.values(reads)) await read(i);
  const samples = new Map<string, number[]>();
  const load: number[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    load.push(os.loadavg()[0]!);
    for (const [name, read] of Object.entries(reads)) {
      const [ms] = await timed(() => read(i));
      samples.set(name, [...(samples.get(name) ?? []), ms]);
    }
  }
  console.log(
    `\n${TOTAL} memories, ${Math.round(TOTAL / 9)} deltas after known_at; ${ROUNDS} calls each (interleaved); ` +
      `1-min load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} on ${os.cpus().length} cores`,
  );
  for (const [name, xs] of samples)
    console.log(`${name.padEnd(36)} p50 ${fmt(percentile(xs, 50))}  p95 ${fmt(percentile(xs, 95))}`);
  for (const base of ['memory search (lexical)', 'neighbourhood depth 1', 'neighbourhood depth 2']) {
    const ratio = percentile(samples.get(`${base} known_at`)!, 95) / percentile(samples.get(base)!, 95);
    console.log(`${base}: p95 known_at / without = ${ratio.toFixed(2)}x`);
  }
} finally {
  await env.stop();
}
