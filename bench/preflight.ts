// Preflight audit cost: npx tsx bench/preflight.ts
// One project grows to 10k, 100k and 1M committed nodes (entities of the general shape, fact memories
// about them, a PART_OF tree, and the delta records that built them) loaded by UNWIND batches of
// 50k; at each size staged deltas that touch
// every check (new memories with subject/object, new concepts in the hierarchy, updates, deletions)
// are audited through POST /v1/preflight/audit. Audit cost should follow the delta, not the graph.
import os from 'node:os';
import { DeltaDraft } from '../src/deltas/draft.js';
import { writeGoverned, type Actor } from '../src/deltas/service.js';
import { tenantToken } from '../src/db/tenant.js';
import { identityKey, normalizeName } from '../src/entities/identity.js';
import { MEMORY_SHAPE_ID } from '../src/memories/service.js';
import type { Graph } from '../src/db/graph.js';
import { preflightChecks, runChecks } from '../src/preflight/checks.js';
import { benchTenant, fmt, percentile, startBench, timed } from './support.js';

const GENERAL_SHAPE_ID = '5e1f0000-0000-4000-8000-000000000002';
const BATCH = 50_000;
// --quick stops at 100k (for working on a check); the figures in the README come from the full run.
const SIZES = process.argv.includes('--quick') ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
const FIXED_DELTA = 100;
const DELTA_SIZES = [10, 100, 1_000];
const PREFIX = 'b-';

interface Row {
  graph: number;
  changes: number;
  runs: number;
  p50: number;
  p95: number;
  max: number;
  findings: number;
  disposition: string;
}

async function load(graph: Graph, projectId: string, from: number, to: number): Promise<void> {
  const base = {
    prefix: PREFIX,
    project_id: projectId,
    tenant: tenantToken(projectId),
    now: new Date().toISOString(),
    shape_id: GENERAL_SHAPE_ID,
    memory_shape_id: MEMORY_SHAPE_ID,
  };
  for (let start = from; start < to; start += BATCH) {
    const end = Math.min(to, start + BATCH);
    // Entities first: memories and the hierarchy point to earlier numbers only.
    await graph.write((tx) => tx.run('preflight/bench/load_entities', { ...base, from: start, to: end }));
    await graph.write((tx) => tx.run('preflight/bench/load_memories', { ...base, from: start, to: end }));
    await graph.write((tx) => tx.run('preflight/bench/load_hierarchy', { ...base, from: start, to: end }));
    await graph.write((tx) => tx.run('preflight/bench/load_history', { ...base, from: start, to: end }));
  }
}

/** Ten changes per unit: 2 memories (+HAS_SUBJECT, +HAS_OBJECT), a concept PART_OF an old one, an update, a deletion. */
function recipe(projectId: string, size: number, changes: number, run: number): DeltaDraft {
  const draft = new DeltaDraft('bench', `bench ${changes}`);
  const tenant = tenantToken(projectId);
  for (let u = 0; u < changes / 10; u += 1) {
    const b = ((u + 1 + run * 7) * 99_730) % size; // a Concept number; b+1 and b+2 are Persons
    for (const side of ['a', 'b']) {
      const content = `Bench ${run}.${u}${side}: person ${b + 1} works on topic ${b}.`;
      const m = draft.createNode(['Memory'], {
        name: `Bench ${run}.${u}${side}`,
        kind: 'fact',
        content,
        scope: 'project',
        memory_schema: 'gks.memory/v1',
        shape_id: MEMORY_SHAPE_ID,
        subject_name: `Person ${b + 1}`,
        predicate: 'works on',
        object_name: side === 'a' ? `Concept ${b}` : `Topic ${u}`,
        tenant,
      });
      draft.createRelationship(m, 'HAS_SUBJECT', `${PREFIX}${b + 1}`, { predicate: 'works on' });
      draft.createRelationship(m, 'HAS_OBJECT', `${PREFIX}${b}`, { predicate: 'works on' });
    }
    const name = `Bench concept ${run}.${u}`;
    const c = draft.createNode(
      ['Entity', 'Concept'],
      { name, normalized_name: normalizeName(name), type: 'Concept', shape_id: GENERAL_SHAPE_ID, tenant },
      { identityKey: identityKey(projectId, 'Concept', name) },
    );
    draft.createRelationship(c, 'PART_OF', `${PREFIX}${b}`);
    draft.updateNode(`${PREFIX}${b + 1}`, { role: 'engineer' });
    draft.deleteNode(`${PREFIX}${b + 2}`);
  }
  return draft;
}

async function main(): Promise<void> {
  const began = Date.now();
  const loadBefore = os.loadavg()[0]!;
  const env = await startBench('preflight', {
    neo4j: Number(process.env.GKS_TEST_NEO4J_PORT ?? 20687),
    temporal: Number(process.env.GKS_TEST_TEMPORAL_PORT ?? 20233),
  });
  const rows: Row[] = [];
  const checkTimes: { name: string; p50: number }[] = [];
  try {
    const graph = env.service.deps.graph;
    const tenant = await benchTenant(env.service);
    const actor: Actor = {
      projectId: tenant.projectId,
      organizationId: tenant.organizationId,
      keyId: 'bench',
      requestId: 'bench',
    };
    const auditOnce = async (deltaId: string) => {
      const response = await fetch(`${env.service.url}/v1/preflight/audit`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ delta_id: deltaId }),
      });
      const body = (await response.json()) as { disposition: string; findings: unknown[] };
      if (response.status !== 200) throw new Error(`audit answered ${response.status}: ${JSON.stringify(body)}`);
      return body;
    };
    let runSeed = 0;
    const measure = async (size: number, changes: number, runs: number) => {
      const times: number[] = [];
      let last = { disposition: '', findings: [] as unknown[] };
      // Stage every delta of the series first (other nodes each time, left staged like a review
      // queue), then audit them: no write runs between audits, so Neo4j's statistics stay put and
      // the plans made during the three warm-up audits are the ones measured.
      const deltaIds: string[] = [];
      for (let r = 0; r < runs + 3; r += 1) {
        deltaIds.push(
          (await writeGoverned(graph, recipe(tenant.projectId, size, changes, runSeed++), actor, false)).deltaId,
        );
      }
      for (const [r, deltaId] of deltaIds.entries()) {
        const [ms, verdict] = await timed(() => auditOnce(deltaId));
        if (r >= 3) times.push(ms);
        last = verdict;
      }
      const row = {
        graph: size,
        changes,
        runs,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        max: Math.max(...times),
        findings: last.findings.length,
        disposition: last.disposition,
      };
      rows.push(row);
      process.stderr.write(
        `  ${size} nodes, ${changes} changes: p50 ${fmt(row.p50)} p95 ${fmt(row.p95)} (${row.findings} findings, ${row.disposition}) runs: ${times.map((t) => t.toFixed(0)).join(' ')}\n`,
      );
    };
    /** Median time of each check on its own for one delta size: where the audit spends its time. */
    const profile = async (size: number, changes: number, runs: number) => {
      const samples = new Map<string, number[]>();
      for (let r = 0; r < runs; r += 1) {
        const { deltaId } = await writeGoverned(
          graph,
          recipe(tenant.projectId, size, changes, runSeed++),
          actor,
          false,
        );
        for (const check of preflightChecks()) {
          const [ms] = await timed(() =>
            graph.read((tx) => runChecks(tx, deltaId, tenant.projectId, new Date().toISOString(), [check])),
          );
          samples.set(check.name, [...(samples.get(check.name) ?? []), ms]);
        }
      }
      for (const [name, times] of samples) checkTimes.push({ name, p50: percentile(times, 50) });
    };
    let loaded = 0;
    for (const size of SIZES) {
      const [ms] = await timed(() => load(graph, tenant.projectId, loaded, size));
      loaded = size;
      const [row] = await graph.read((tx) =>
        tx.runText('MATCH (n:Knowledge {project_id: $p}) WHERE NOT n:Pending RETURN count(n) AS nodes', {
          p: tenant.projectId,
        }),
      );
      process.stderr.write(`loaded ${row?.nodes} nodes in ${(ms / 1000).toFixed(1)} s\n`);
      await measure(size, FIXED_DELTA, 15);
      if (size === 100_000) {
        for (const changes of DELTA_SIZES)
          if (changes !== FIXED_DELTA) await measure(size, changes, changes >= 1000 ? 20 : 15);
        await profile(size, 1_000, 5);
      }
    }
  } finally {
    await env.stop();
  }
  rows.sort((a, b) => a.graph - b.graph || a.changes - b.changes);
  console.log(`\nPreflight audit (POST /v1/preflight/audit, ${preflightChecks().length} checks, READ transaction)\n`);
  console.log('| graph nodes | delta changes | runs | p50 | p95 | max | findings | disposition |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows)
    console.log(
      `| ${r.graph.toLocaleString('en')} | ${r.changes.toLocaleString('en')} | ${r.runs} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.max)} | ${r.findings} | ${r.disposition} |`,
    );
  if (checkTimes.length > 0) {
    console.log('\nEach check alone, 100,000 nodes, 1,000 changes (median of 5)\n');
    console.log('| check | p50 |');
    console.log('|---|---:|');
    for (const c of checkTimes) console.log(`| ${c.name} | ${fmt(c.p50)} |`);
  }
  console.log(
    `\nTotal ${((Date.now() - began) / 1000).toFixed(0)} s on ${os.cpus().length} cores; load average ${loadBefore.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at end (other work shares the machine). Command: npx tsx bench/preflight.ts`,
  );
}

await main();
