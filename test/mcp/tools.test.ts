import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { createDocument, GENERAL_SHAPE_ID, STORY } from '../loops/support.js';
import { call, closeClients, httpClient, ok, text } from './support.js';

describe('MCP tools over the graph, captures, loops and preflight', function () {
  afterEach(closeClients);
  this.timeout(240_000);

  it('capture stages a submission; get_node and neighbours walk from it; audit_delta audits it', async () => {
    const t = await newTenant(0);
    const client = await httpClient(t.key);
    const tools = (await client.listTools()).tools;
    const neighbours = tools.find((x) => x.name === 'neighbours')!;
    assert.ok(neighbours.inputSchema.required?.includes('node_id'), 'neighbours needs node_id');
    assert.equal(neighbours.annotations?.readOnlyHint, true);
    assert.equal(tools.find((x) => x.name === 'capture')!.annotations?.readOnlyHint, false);
    const captured = await call(client, 'capture', {
      kind: 'note',
      content: 'Ada Lovelace worked with Charles Babbage on the Analytical Engine in London.',
      apply: false,
    });
    const sc = captured.structuredContent as { id: string; delta_id: string; status: string };
    assert.equal(sc.status, 'staged');
    assert.match(text(captured), /^Staged for review as delta /);
    const verdict = await ok<{ disposition: string; findings: unknown[] }>(client, 'audit_delta', {
      delta_id: sc.delta_id,
    });
    assert.equal(typeof verdict.disposition, 'string');
    assert.ok(Array.isArray(verdict.findings));
    const unknown = await call(client, 'audit_delta', { delta_id: 'no-such-delta' });
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /^not_found: /);
    await ok(client, 'apply_delta', { id: sc.delta_id });

    const node = await ok<{ node: { id: string; labels: string[] }; nodes: { id: string }[] }>(client, 'get_node', {
      id: sc.id,
    });
    assert.equal(node.node.id, sc.id);
    assert.ok(node.node.labels.includes('Submission'));
    assert.ok(node.nodes.length >= 1, 'the submission mentions at least one entity');
    const edges = await ok<{ edges: { type: string; source: string; target: string }[] }>(client, 'neighbours', {
      node_id: sc.id,
      direction: 'out',
    });
    assert.ok(edges.edges.length >= 1);
    assert.ok(edges.edges.every((e) => e.type === 'MENTIONS' && e.source === sc.id));
    assert.deepEqual(
      new Set(edges.edges.map((e) => e.target)),
      new Set(node.nodes.map((n) => n.id)),
      'the edges lead to the neighbours get_node shows',
    );
    const missing = await call(client, 'neighbours', {});
    assert.equal(missing.isError, true);
    assert.match(text(missing), /node_id/);
    await client.close();
  });

  it('start_extraction starts a graph_extraction loop that stages its delta; loop_status shows it with its latest events', async () => {
    const t = await newTenant(10_000);
    const doc = await createDocument(t, STORY);
    const client = await httpClient(t.key);
    const start = (await client.listTools()).tools.find((x) => x.name === 'start_extraction')!;
    assert.equal(start.inputSchema.properties?.kind, undefined, 'kind is fixed, not an argument');
    const started = await call(client, 'start_extraction', {
      goal: 'who worked with whom',
      context: { source_ids: [doc] },
      schema: { shape_ids: [GENERAL_SHAPE_ID] },
    });
    assert.equal(started.isError, undefined, text(started));
    const loop = started.structuredContent as { loop_id: string; delta_id: string; kind: string };
    assert.equal(loop.kind, 'graph_extraction');
    assert.match(text(started), new RegExp(`^Started loop ${loop.loop_id} .*delta ${loop.delta_id}`));
    type Status = { status: string; delta_id: string; events: { sequence: number; type: string }[] };
    let status: Status;
    const deadline = Date.now() + 180_000;
    do {
      await new Promise((r) => setTimeout(r, 500));
      status = await ok<Status>(client, 'loop_status', { loop_id: loop.loop_id, events: 3 });
    } while (!['completed', 'failed', 'cancelled'].includes(status.status) && Date.now() < deadline);
    assert.equal(status.status, 'completed');
    assert.equal(status.delta_id, loop.delta_id);
    assert.ok(status.events.length >= 1 && status.events.length <= 3);
    const all = await t.get(`/v1/loops/${loop.loop_id}/events?limit=1000`);
    const last = (all.body.events as { sequence: number }[]).slice(-status.events.length).map((e) => e.sequence);
    assert.deepEqual(
      status.events.map((e) => e.sequence),
      last,
      'the latest events, in order',
    );
    // The loop's delta keeps origin loop (its content is the loop's), created by the agent's key.
    const delta = await t.get(`/v1/deltas/${loop.delta_id}`);
    assert.equal(delta.body.delta.origin, 'loop');
    assert.equal(delta.body.delta.status, 'staged');
    assert.equal(delta.body.delta.created_by, t.keyId);
    // GET /v1/loops lists it (newest first, as recorded in the graph), filterable by status.
    const listed = await t.get('/v1/loops?status=completed');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.body.loops as { loop_id: string; delta_id: string }[]).map((l) => [l.loop_id, l.delta_id]),
      [[loop.loop_id, loop.delta_id]],
    );
    assert.equal((await t.get('/v1/loops?status=running')).body.loops.length, 0);
    const bad = await call(client, 'loop_status', { loop_id: loop.loop_id, events: 500 });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /events/);
    await client.close();
  });

  it('GET /metrics counts tool calls per tool and outcome, with their latency', async () => {
    const t = await newTenant(0);
    const client = await httpClient(t.key);
    await ok(client, 'recall', { query: 'metrics per tool' });
    await call(client, 'get_memory', { id: 'no-such-memory' });
    await client.close();
    const body = await (await fetch(`${harness().url}/metrics`)).text();
    assert.match(body, /gks_mcp_tool_calls_total\{tool="recall",outcome="ok"\} [1-9]/);
    assert.match(body, /gks_mcp_tool_calls_total\{tool="get_memory",outcome="tool_error"\} [1-9]/);
    assert.match(body, /gks_mcp_tool_duration_seconds_count\{tool="recall"\} [1-9]/);
  });
});
