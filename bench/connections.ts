// Issue 10 benchmark: records synced per second from a GitHub-like stand-in serving 10,000 issues
// (100 pages of 100): a first full sync staging 10,000 documents, the apply of that delta, and a
// second sync that finds nothing changed.
// Run: npx tsx bench/connections.ts   (own Neo4j and Temporal dev server on 24787/24333, or NEO4J_URI/TEMPORAL_ADDRESS)
import { benchTenant, fmt, startBench } from './support.js';
import { github, makeIssues, startStandIn } from '../test/connections/standins.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 10_000);
process.env.FETCH_ALLOW_PRIVATE = 'true';
process.env.GKS_SECRETS_KEY ??= Buffer.alloc(32, 9).toString('base64');
const env = await startBench('connections', { neo4j: 24787, temporal: 24333 }, { temporal: true });
const { service } = env;
const tenant = await benchTenant(service);
const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${service.url}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  return (await r.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- bench reads replies loosely
};
const upstream = await startStandIn(github);
upstream.issues = makeIssues(RECORDS);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bench reads replies loosely
async function syncAndWait(id: string): Promise<[number, Record<string, any>]> {
  const began = performance.now();
  const started = await api('POST', `/v1/connections/${id}/sync`, {});
  for (;;) {
    const { sync } = await api('GET', `/v1/connections/${id}/syncs/${String(started.sync_id)}`);
    if (['completed', 'failed', 'cancelled'].includes(sync.status)) return [performance.now() - began, sync];
    await new Promise((r) => setTimeout(r, 100));
  }
}

try {
  const created = await api('POST', '/v1/connections', {
    name: 'bench',
    kind: 'github_issues',
    config: { repo: 'acme/widgets', base_url: upstream.url },
    secret: { token: upstream.token },
  });
  const id = String(created.connection.id);
  console.log(`\n== github_issues stand-in, ${RECORDS} issues in pages of 100 ==`);
  const [first, sync] = await syncAndWait(id);
  console.log(
    `first sync (stage ${sync.records.created} documents, ${sync.pages} pages): ${fmt(first)}  → ${(RECORDS / (first / 1000)).toFixed(0)} records/s  [${sync.status}]`,
  );
  const applyStarted = performance.now();
  const applied = await fetch(`${service.url}/v1/deltas/${String(sync.delta_id)}/apply`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  console.log(`apply of the sync delta: HTTP ${applied.status} in ${fmt(performance.now() - applyStarted)}`);
  const [second, again] = await syncAndWait(id);
  console.log(
    `second sync, nothing changed (since= sent, ${again.records.seen} re-read, ${again.records.created + again.records.updated} staged): ${fmt(second)}`,
  );
} finally {
  await upstream.close();
  await env.stop();
}
