import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { captureLogs, harness } from '../support/harness.js';
import { github, jsonApi, makeIssues, startStandIn, type StandIn } from './standins.js';
import {
  createConnection,
  deltaChanges,
  get,
  githubConnection,
  graphHolds,
  jsonConnection,
  post,
  replies,
  syncNow,
  waitForSync,
} from './support.js';

describe('connection syncs', function () {
  this.timeout(240_000);
  let gh: StandIn;
  let t: Tenant;
  let connectionId: string;
  let logs: ReturnType<typeof captureLogs>;
  const docId = new Map<string, string>();
  let wrongToken = 'unset-wrong-token';

  before(async () => {
    gh = await startStandIn(github);
    gh.issues = [
      ...makeIssues(5),
      {
        number: 99,
        title: 'A pull request',
        body: 'not an issue',
        updated_at: '2026-01-01T00:30:00.000Z',
        pull_request: true,
      },
    ];
    t = await newTenant();
    logs = captureLogs();
    connectionId = await createConnection(t, githubConnection(gh));
  });

  after(async () => {
    logs.stop();
    await gh.close();
  });

  async function searchHits(query: string): Promise<number> {
    const reply = await post(t, '/v1/search', { query, planes: ['document'] });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.nodes.length;
  }

  it('N upstream issues stage N documents (pull requests skipped), searchable only after the delta is applied', async () => {
    const sync = await syncNow(t, connectionId);
    assert.equal(sync.status, 'completed', JSON.stringify(sync));
    assert.deepEqual(sync.records, { seen: 5, created: 5, updated: 0, unchanged: 0 });
    assert.equal(sync.delta_status, 'staged');
    const changes = await deltaChanges(t, sync.delta_id);
    const documents = changes.filter((c) => c.op === 'create_node' && c.labels?.includes('Document'));
    assert.equal(documents.length, 5);
    for (const d of documents) {
      assert.equal(d.properties.source_connection_id, connectionId);
      docId.set(String(d.properties.external_id), String(d.node_id));
    }
    assert.deepEqual([...docId.keys()].sort(), [
      'acme/widgets#1',
      'acme/widgets#2',
      'acme/widgets#3',
      'acme/widgets#4',
      'acme/widgets#5',
    ]);
    assert.equal(
      changes.filter((c) => c.op === 'create_relationship' && c.type === 'SYNCED_FROM' && c.to === connectionId).length,
      5,
    );
    assert.equal(await searchHits('flux capacitor'), 0, 'staged documents are not searchable');
    const connection = (await get(t, `/v1/connections/${connectionId}`)).body.connection;
    assert.equal(connection.cursor, null, 'the cursor waits for the apply');
    const applied = await post(t, `/v1/deltas/${sync.delta_id}/apply`, {});
    if (applied.status !== 200) console.log(logs.lines.filter((l) => l.includes('unexpected')).join('\n'));
    assert.equal(applied.status, 200);
    assert.ok((await searchHits('flux capacitor')) > 0, 'applied documents are searchable');
    const after = (await get(t, `/v1/connections/${connectionId}`)).body.connection;
    assert.equal(after.cursor, gh.issues[4]!.updated_at);
    assert.equal(after.status, 'active');
  });

  it('a second sync with no upstream change sends since= and stages nothing', async () => {
    const before = gh.requests.length;
    const sync = await syncNow(t, connectionId);
    assert.equal(sync.status, 'completed');
    assert.deepEqual({ created: sync.records.created, updated: sync.records.updated }, { created: 0, updated: 0 });
    assert.equal((await deltaChanges(t, sync.delta_id)).length, 0);
    assert.equal(sync.delta_status, 'applied', 'an empty sync delta is applied at once');
    const issuesCall = gh.requests.slice(before).find((r) => r.path === '/repos/acme/widgets/issues');
    assert.ok(issuesCall);
    assert.equal(issuesCall.query.get('since'), gh.issues[4]!.updated_at);
    for (const [k, v] of Object.entries({ state: 'all', sort: 'updated', direction: 'asc', per_page: '100' }))
      assert.equal(issuesCall.query.get(k), v);
    assert.ok(
      gh.requests.every((r) => !r.query.toString().includes(gh.token)),
      'the token never rides in a query string',
    );
  });

  it('one upstream edit stages exactly one update of that document', async () => {
    gh.issues[2] = { ...gh.issues[2]!, body: 'Now with a sonic screwdriver.', updated_at: '2026-02-01T00:00:00.000Z' };
    const sync = await syncNow(t, connectionId);
    // since= is inclusive upstream: the record at the cursor comes again, unchanged, and stages nothing.
    assert.deepEqual(sync.records, { seen: 2, created: 0, updated: 1, unchanged: 1 });
    const changes = await deltaChanges(t, sync.delta_id);
    const updates = changes.filter((c) => c.op === 'update_node');
    assert.equal(updates.length, 1);
    assert.equal(updates[0]!.node_id, docId.get('acme/widgets#3'));
    assert.equal(changes.filter((c) => c.op === 'create_node' && c.labels?.includes('Document')).length, 0);
    assert.equal((await post(t, `/v1/deltas/${sync.delta_id}/apply`, {})).status, 200);
    assert.ok((await searchHits('sonic screwdriver')) > 0);
  });

  it('a rejected sync delta leaves the cursor where it was, so the next sync fetches those records again', async () => {
    const cursorBefore = (await get(t, `/v1/connections/${connectionId}`)).body.connection.cursor;
    gh.issues[3] = { ...gh.issues[3]!, title: 'Issue 4 renamed', updated_at: '2026-03-01T00:00:00.000Z' };
    const first = await syncNow(t, connectionId);
    assert.equal(first.records.updated, 1);
    const blocked = await post(t, `/v1/connections/${connectionId}/sync`, {});
    assert.equal(blocked.status, 409, 'a staged sync delta awaits review before the next sync');
    assert.equal(blocked.body.error.code, 'sync_in_progress');
    assert.equal((await post(t, `/v1/deltas/${first.delta_id}/reject`, {})).status, 200);
    assert.equal((await get(t, `/v1/connections/${connectionId}`)).body.connection.cursor, cursorBefore);
    const again = await syncNow(t, connectionId);
    assert.equal(again.since, cursorBefore);
    assert.equal(again.records.updated, 1, 'the rejected change is fetched and staged again');
    assert.equal((await post(t, `/v1/deltas/${again.delta_id}/apply`, {})).status, 200);
  });

  it('two syncs at once: the second is 409 sync_in_progress', async () => {
    gh.holdPage = 1;
    try {
      const first = await post(t, `/v1/connections/${connectionId}/sync`, {});
      assert.equal(first.status, 202);
      const second = await post(t, `/v1/connections/${connectionId}/sync`, {});
      assert.equal(second.status, 409);
      assert.equal(second.body.error.code, 'sync_in_progress');
      gh.holdPage = null;
      gh.release();
      assert.equal((await waitForSync(t, connectionId, first.body.sync_id)).status, 'completed');
    } finally {
      gh.holdPage = null;
      gh.release();
    }
  });

  it('a 500 on page 2 fails the run; the next run resumes at page 2 into the same delta', async () => {
    const api = await startStandIn(jsonApi);
    try {
      api.issues = makeIssues(7);
      api.failPage = { page: 2, status: 500, times: 100 };
      const id = await createConnection(t, jsonConnection(api));
      const failed = await syncNow(t, id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.pages, 1);
      assert.ok(!String(failed.error).includes(api.token), 'the upstream error text is scrubbed');
      api.failPage = null;
      const before = api.requests.length;
      const resumed = await syncNow(t, id);
      assert.equal(resumed.status, 'completed');
      assert.equal(resumed.resumed_from, failed.sync_id);
      assert.equal(resumed.delta_id, failed.delta_id);
      assert.equal(api.requests[before]!.query.get('page'), '2', 'the next run asks for page 2 first');
      assert.deepEqual(resumed.records, { seen: 7, created: 7, updated: 0, unchanged: 0 });
      const documents = (await deltaChanges(t, resumed.delta_id)).filter(
        (c) => c.op === 'create_node' && c.labels?.includes('Document'),
      );
      assert.equal(documents.length, 7);
    } finally {
      await api.close();
    }
  });

  it("a failed activity attempt is one JSON warning in the service's log, naming its workflow and activity, with no token", async () => {
    const api = await startStandIn(jsonApi);
    const logs = captureLogs();
    try {
      api.issues = makeIssues(3);
      api.failPage = { page: 1, status: 500, times: 100 };
      const id = await createConnection(t, jsonConnection(api));
      const failed = await syncNow(t, id);
      assert.equal(failed.status, 'failed');
      const lines = logs.lines.map((l) => JSON.parse(l) as Record<string, never>);
      const attempt = lines.find((l) => l.msg === 'Activity failed') as
        { level: number; temporal: Record<string, unknown>; err: { message: string; stack: string } } | undefined;
      assert.ok(attempt, `the SDK's line is in the service log: ${logs.lines.join('')}`);
      assert.equal(attempt.level, 40);
      assert.equal(typeof attempt.temporal.workflowId, 'string');
      assert.equal(typeof attempt.temporal.activityType, 'string');
      assert.match(attempt.err.message, /HTTP 500/);
      assert.match(attempt.err.stack, /\n\s+at /, 'the stack stays inside the line');
      assert.ok(!logs.lines.join('').includes(api.token), 'no line holds the token');
    } finally {
      logs.stop();
      await api.close();
    }
  });

  it('a 401 upstream marks the connection error / auth_failed, and the echoed token is scrubbed', async () => {
    const wrong = `wrong_${Math.random().toString(36).slice(2)}_TOKEN`;
    wrongToken = wrong;
    const id = await createConnection(t, githubConnection(gh, { name: 'bad token', secret: { token: wrong } }));
    const test = await post(t, `/v1/connections/${id}/test`, {});
    assert.equal(test.status, 200);
    assert.equal(test.body.ok, false);
    assert.equal(test.body.status_reason, 'auth_failed');
    assert.deepEqual(
      test.body.checks.map((c: { name: string; ok: boolean; http_status: number }) => [c.name, c.ok, c.http_status]),
      [
        ['reachable', true, 401],
        ['authenticated', false, 401],
        ['scope', false, 401],
      ],
    );
    const sync = await syncNow(t, id);
    assert.equal(sync.status, 'failed');
    assert.match(String(sync.error), /401/);
    assert.ok(!String(sync.error).includes(wrong));
    const connection = (await get(t, `/v1/connections/${id}`)).body.connection;
    assert.equal(connection.status, 'error');
    assert.equal(connection.status_reason, 'auth_failed');
    const events = await get(t, `/v1/connections/${id}/syncs/${sync.sync_id}/events`);
    assert.equal(events.status, 200);
    assert.ok(events.body.events.some((e: { summary: string }) => /failed/.test(e.summary)));
    assert.equal(await graphHolds(wrong), 0);
  });

  it('the token appears in no response, log line, delta view, event, workflow history or graph property', async () => {
    const syncs = (await get(t, `/v1/connections/${connectionId}/syncs`)).body.syncs as {
      sync_id: string;
      delta_id: string;
    }[];
    assert.ok(syncs.length >= 5);
    for (const s of syncs) {
      const events = await get(t, `/v1/connections/${connectionId}/syncs/${s.sync_id}/events?limit=1000`);
      assert.equal(events.status, 200);
      assert.ok(events.body.events.length > 0);
      await get(t, `/v1/deltas/${s.delta_id}?changes_limit=5000`);
    }
    await get(t, '/v1/connections');
    const client = await harness().service.gateway.getClient();
    const history = await client.workflow.getHandle(`sync-${connectionId}`).fetchHistory();
    const token = gh.token;
    assert.ok(!JSON.stringify(history).includes(token), 'workflow history');
    assert.deepEqual(
      replies.filter((r) => r.includes(token)),
      [],
      'responses',
    );
    assert.ok(logs.lines.length > 0, 'logs were captured');
    assert.ok(
      replies.every((r) => !r.includes(wrongToken)),
      'responses (wrong token)',
    );
    assert.ok(
      logs.lines.every((l) => !l.includes(token) && !l.includes(wrongToken)),
      'log lines',
    );
    assert.equal(await graphHolds(token), 0, 'graph properties');
  });
});
