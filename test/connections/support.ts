// Helpers of the connection tests: a client that keeps every reply (to prove no token leaks),
// connection bodies for the stand-ins, and waiting for a sync run to end.
import assert from 'node:assert/strict';
import { newTenant, type Reply, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { github, startStandIn, type StandIn } from './standins.js';

export const replies: string[] = [];

export async function post(t: Tenant, path: string, body?: unknown): Promise<Reply> {
  const reply = await t.post(path, body);
  replies.push(JSON.stringify(reply.body));
  return reply;
}

export async function get(t: Tenant, path: string): Promise<Reply> {
  const reply = await t.get(path);
  replies.push(JSON.stringify(reply.body));
  return reply;
}

export function githubConnection(s: StandIn, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'widgets issues',
    kind: 'github_issues',
    config: { repo: 'acme/widgets', base_url: s.url },
    secret: { token: s.token },
    target: { route: 'document' },
    ...extra,
  };
}

export function jsonConnection(s: StandIn, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'items',
    kind: 'http_json',
    secret: { token: s.token },
    target: { route: 'document' },
    config: {
      base_url: s.url,
      path: '/api/items',
      records_path: 'data.items',
      id_field: 'id',
      title_field: 'name',
      text_field: 'description',
      updated_field: 'modified',
      pagination: { type: 'link_header' },
    },
    ...extra,
  };
}

export async function createConnection(t: Tenant, body: Record<string, unknown>): Promise<string> {
  const reply = await post(t, '/v1/connections', body);
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return String(reply.body.connection.id);
}

export async function waitForSync(
  t: Tenant,
  connectionId: string,
  syncId: string,
  timeoutMs = 90_000,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await get(t, `/v1/connections/${connectionId}/syncs/${syncId}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    if (['completed', 'failed', 'cancelled'].includes(reply.body.sync.status)) return reply.body.sync;
    if (Date.now() > deadline) throw new Error(`sync ${syncId} still ${reply.body.sync.status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Starts a sync and waits for it to end. */
export async function syncNow(
  t: Tenant,
  connectionId: string,
  body: Record<string, unknown> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
): Promise<Record<string, any>> {
  const started = await post(t, `/v1/connections/${connectionId}/sync`, body);
  assert.equal(started.status, 202, JSON.stringify(started.body));
  return waitForSync(t, connectionId, started.body.sync_id);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
export async function deltaChanges(t: Tenant, deltaId: string): Promise<Record<string, any>[]> {
  const reply = await get(t, `/v1/deltas/${deltaId}?changes_limit=5000`);
  assert.equal(reply.status, 200);
  return reply.body.delta.changes;
}

/** Nodes and relationships anywhere in the graph holding the text in a property. */
export async function graphHolds(text: string): Promise<number> {
  const rows = await harness().service.deps.graph.read((tx) =>
    tx.runText(
      `CALL () { MATCH (n) WHERE any(k IN keys(n) WHERE (n[k] IS :: STRING AND n[k] CONTAINS $t) OR (n[k] IS :: LIST<STRING> AND any(x IN n[k] WHERE x CONTAINS $t))) RETURN count(n) AS c
     UNION ALL MATCH ()-[r]->() WHERE any(k IN keys(r) WHERE r[k] IS :: STRING AND r[k] CONTAINS $t) RETURN count(r) AS c }
     RETURN sum(c) AS holding`,
      { t: text },
    ),
  );
  return Number(rows[0]?.holding ?? 0);
}

/** A GitHub stand-in and a fresh tenant for the tests of one describe block: started before them, closed after. */
export function useGithubStandIn(): { gh: StandIn; t: Tenant } {
  const fixture = {} as { gh: StandIn; t: Tenant };
  before(async () => {
    fixture.gh = await startStandIn(github);
    fixture.t = await newTenant();
  });
  after(() => fixture.gh.close());
  return fixture;
}
