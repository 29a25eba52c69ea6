import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { githubLikeOpenApi, MOVIES_SDL } from './fixtures.js';

const source = () => ({ format: 'openapi', document: githubLikeOpenApi() });

async function audit(t: Tenant, deltaId: string) {
  const reply = await t.post('/v1/preflight/audit', { delta_id: deltaId });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as {
    disposition: string;
    findings: { check: string; severity: string; message: string; evidence: Record<string, unknown> }[];
  };
}

async function applied(t: Tenant, deltaId: string): Promise<void> {
  const reply = await t.post(`/v1/deltas/${deltaId}/apply`, {});
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

/** A committed bridge over the GitHub-like document. */
async function githubBridge(t: Tenant, name = 'github'): Promise<string> {
  const created = await t.post('/v1/bridges', { name, source: source() });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await applied(t, created.body.delta_id);
  return created.body.id;
}

async function cypher(query: string, params: Record<string, unknown>) {
  return harness().service.deps.graph.read((tx) => tx.runText(query, params));
}

const issues = () => [
  {
    id: 1,
    number: 1,
    title: 'Crash on start',
    state: 'open',
    created_at: '2026-01-02T03:04:05Z',
    assignee: { id: 7, login: 'ada' },
    labels: [{ id: 11, name: 'bug' }],
    tags: ['x'],
  },
  {
    id: 2,
    number: 2,
    title: 'Docs typo',
    state: 'closed',
    created_at: '2026-01-03T00:00:00Z',
    assignee: null,
    labels: [],
  },
  {
    id: 3,
    number: 3,
    title: 'Faster search',
    state: 'open',
    reactions: { total_count: 4, heart: 1 },
    labels: [{ id: 12, name: 'perf' }],
  },
];

describe('bridges', () => {
  it('propose is read-only and answers the proposal and what it could not map', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/bridges/propose', { source: source() });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(
      reply.body.proposal.entity_types.map((x: { label: string }) => x.label),
      ['Issue', 'User', 'Label'],
    );
    assert.equal(reply.body.unmapped.length, 1);
    assert.match(reply.body.source_digest, /^sha256:[0-9a-f]{64}$/);
    const deltas = await t.get('/v1/deltas');
    assert.equal(deltas.body.deltas.length, 0, 'nothing was staged');
  });

  it('a remote $ref is a 400 naming its pointer; a source with both document and url is a 400', async () => {
    const t = await newTenant(0);
    const doc = githubLikeOpenApi();
    (doc as { components: { schemas: Record<string, unknown> } }).components.schemas.Label = {
      $ref: 'other.yaml#/Label',
    };
    const remote = await t.post('/v1/bridges/propose', { source: { format: 'openapi', document: doc } });
    assert.equal(remote.status, 400);
    assert.equal(remote.body.error.details.fields[0].field, '/body/source/document/components/schemas/Label/$ref');
    const both = await t.post('/v1/bridges/propose', {
      source: { format: 'openapi', document: doc, url: 'http://127.0.0.1/x.json' },
    });
    assert.equal(both.status, 400);
  });

  it('a url source is fetched through the guarded fetcher', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(MOVIES_SDL);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const t = await newTenant(0);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.graphql`;
      const reply = await t.post('/v1/bridges/propose', { source: { format: 'graphql_sdl', url } });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(
        reply.body.proposal.entity_types.map((x: { label: string }) => x.label),
        ['Movie', 'Person'],
      );
    } finally {
      server.close();
    }
  });

  it('a url source needs bridges:write: bridges:read alone cannot make the server fetch (403, nothing fetched)', async () => {
    let fetched = 0;
    const server = http.createServer((_req, res) => {
      fetched += 1;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(MOVIES_SDL);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const t = await newTenant(0);
      const reader = await t.keyWith({ scopes: ['bridges:read'] });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.graphql`;
      const reply = await call(
        'POST',
        '/v1/bridges/propose',
        { source: { format: 'graphql_sdl', url } },
        { key: reader },
      );
      assert.equal(reply.status, 403, JSON.stringify(reply.body));
      assert.match(JSON.stringify(reply.body), /bridges:write/);
      assert.equal(fetched, 0);
      const inline = await call(
        'POST',
        '/v1/bridges/propose',
        { source: { format: 'graphql_sdl', document: MOVIES_SDL } },
        { key: reader },
      );
      assert.equal(inline.status, 200, JSON.stringify(inline.body));
    } finally {
      server.close();
    }
  });

  it('create stages the shape, bridge and mappings in one delta; map waits until it is applied; the graph reads as Bridge-PROPOSES->Shape', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/bridges', { name: 'github', source: source() });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.status, 'staged');
    assert.equal(created.body.bridge.status, 'staged');
    assert.equal(created.body.bridge.mappings.length, 3);
    assert.equal(created.body.shape.name, 'bridge-github');
    assert.equal((await audit(t, created.body.delta_id)).disposition, 'SafeToAct');
    const early = await t.post(`/v1/bridges/${created.body.id}/map`, { record_type: 'Issue', records: issues() });
    assert.equal(early.status, 409);
    assert.equal(early.body.error.details.delta_id, created.body.delta_id);
    const dup = await t.post('/v1/bridges', { name: 'github', source: source() });
    assert.equal(dup.status, 409);

    await applied(t, created.body.delta_id);
    const rows = await cypher(
      'MATCH (b:Bridge {id: $id})-[:PROPOSES]->(s:Shape) MATCH (b)-[:HAS_MAPPING]->(m:BridgeMapping) WHERE NOT m:Pending RETURN s.name AS shape, collect(m.label) AS labels',
      { id: created.body.id },
    );
    assert.deepEqual(
      rows.map((r) => ({ shape: r.shape, labels: [...(r.labels as string[])].sort() })),
      [{ shape: 'bridge-github', labels: ['Issue', 'Label', 'User'] }],
    );
    const read = await t.get(`/v1/bridges/${created.body.id}`);
    assert.equal(read.body.bridge.status, 'applied');
    assert.equal(read.body.bridge.source_digest, created.body.bridge.source_digest);
    const list = await t.get('/v1/bridges?name=github');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.bridges.map((b: { id: string }) => b.id),
      [created.body.id],
    );
  });

  it('map creates, then stages nothing for the same records, then exactly one update for one changed title', async () => {
    const t = await newTenant(0);
    const id = await githubBridge(t);
    const first = await t.post(`/v1/bridges/${id}/map`, { record_type: 'Issue', records: issues() });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.status, 'staged');
    assert.deepEqual(first.body.counts, { created: 3, updated: 0, unchanged: 0 });
    assert.deepEqual(
      first.body.unresolved.map((u: { field: string; external_id: string }) => `${u.field}:${u.external_id}`).sort(),
      ['assignee:7', 'labels:11', 'labels:12'],
    );
    assert.equal((await audit(t, first.body.delta_id)).disposition, 'SafeToAct');
    await applied(t, first.body.delta_id);

    const again = await t.post(`/v1/bridges/${id}/map`, { record_type: 'Issue', records: issues() });
    assert.deepEqual(again.body.counts, { created: 0, updated: 0, unchanged: 3 });
    const againDelta = await t.get(`/v1/deltas/${again.body.delta_id}`);
    assert.equal(againDelta.body.delta.changes.length, 0);

    const edited = issues();
    edited[1]!.title = 'Docs typo in README';
    const once = await t.post(`/v1/bridges/${id}/map`, { record_type: 'Issue', records: edited });
    assert.deepEqual(once.body.counts, { created: 0, updated: 1, unchanged: 2 });
    const changes = (await t.get(`/v1/deltas/${once.body.delta_id}`)).body.delta.changes;
    assert.equal(changes.length, 1);
    assert.equal(changes[0].op, 'update_node');
    await applied(t, once.body.delta_id);
    const titles = await cypher(
      'MATCH (i:Issue {bridge_id: $id}) WHERE NOT i:Pending RETURN i.external_id AS x, i.title AS title, i.name AS name ORDER BY x',
      { id },
    );
    assert.deepEqual(titles, [
      { x: '1', title: 'Crash on start', name: 'Crash on start' },
      { x: '2', title: 'Docs typo in README', name: 'Docs typo in README' },
      { x: '3', title: 'Faster search', name: 'Faster search' },
    ]);
  });

  it('relationship targets resolve against committed entities; one-to-many labels and many-to-one assignee become edges', async () => {
    const t = await newTenant(0);
    const id = await githubBridge(t);
    const users = await t.post(`/v1/bridges/${id}/map`, {
      record_type: 'User',
      records: [{ id: 7, login: 'ada', site_admin: false }],
      apply: true,
    });
    assert.equal(users.status, 201, JSON.stringify(users.body));
    const labels = await t.post(`/v1/bridges/${id}/map`, {
      record_type: 'Label',
      records: [
        { id: 11, name: 'bug' },
        { id: 12, name: 'perf' },
      ],
      apply: true,
    });
    assert.equal(labels.body.counts.created, 2);
    const mapped = await t.post(`/v1/bridges/${id}/map`, { record_type: 'Issue', records: issues(), apply: true });
    assert.deepEqual(mapped.body.unresolved, []);
    const edges = await cypher(
      "MATCH (i:Issue {bridge_id: $id})-[r]->(x:Entity) WHERE r.pending IS NULL RETURN i.external_id + '-' + type(r) + '->' + x.name AS e ORDER BY e",
      { id },
    );
    assert.deepEqual(
      edges.map((r) => r.e),
      ['1-HAS_ASSIGNEE->ada', '1-HAS_LABELS->bug', '3-HAS_LABELS->perf'],
    );
    const again = await t.post(`/v1/bridges/${id}/map`, { record_type: 'Issue', records: issues(), dry_run: true });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.counts, { created: 0, updated: 0, unchanged: 3 });
  });

  it('a value outside the enum is Blocked by the audit; a record without identity is a 400 naming it', async () => {
    const t = await newTenant(0);
    const id = await githubBridge(t);
    const bad = await t.post(`/v1/bridges/${id}/map`, {
      record_type: 'Issue',
      records: [{ id: 9, title: 'Odd', state: 'reopened' }],
    });
    assert.equal(bad.status, 201);
    const verdict = await audit(t, bad.body.delta_id);
    assert.equal(verdict.disposition, 'Blocked');
    assert.ok(
      verdict.findings.some((f) => f.check === 'shape_properties' && f.severity === 'error'),
      JSON.stringify(verdict.findings),
    );
    const noId = await t.post(`/v1/bridges/${id}/map`, {
      record_type: 'Issue',
      records: [{ title: 'x', state: 'open' }],
    });
    assert.equal(noId.status, 400);
    assert.equal(noId.body.error.details.fields[0].field, '/body/records/0/id');
    const unknown = await t.post(`/v1/bridges/${id}/map`, { record_type: 'Comment', records: [{ id: 1 }] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.details.fields[0].field, '/body/record_type');
  });

  it('a version from an edited proposal supersedes the shape, replaces the mappings and reports the diff', async () => {
    const t = await newTenant(0);
    const id = await githubBridge(t);
    const proposal = (await t.post('/v1/bridges/propose', { source: source() })).body.proposal;
    const issue = proposal.entity_types[0];
    issue.properties = issue.properties.filter((p: { name: string }) => p.name !== 'number');
    issue.properties.push({ name: 'locked', type: 'boolean', path: 'locked' });
    const version = await t.post(`/v1/bridges/${id}/versions`, { proposal, apply: true });
    assert.equal(version.status, 201, JSON.stringify(version.body));
    assert.deepEqual(version.body.diff.types, {
      added: [],
      removed: [],
      changed: [{ label: 'Issue', properties: { added: ['locked'], removed: ['number'], changed: [] } }],
    });
    assert.equal(version.body.bridge.version, 2);
    assert.equal(
      version.body.bridge.mappings
        .find((m: { label: string }) => m.label === 'Issue')
        .properties.some((p: { name: string }) => p.name === 'locked'),
      true,
    );
    const chain = await cypher(
      'MATCH (n:Shape {id: $new})-[:SUPERSEDES]->(o:Shape) RETURN o.version AS old, n.version AS new',
      { new: version.body.bridge.shape_id },
    );
    assert.deepEqual(chain, [{ old: 1, new: 2 }]);
  });

  it('a mapping that names a label its shape lacks is an error finding', async () => {
    const t = await newTenant(0);
    const id = await githubBridge(t);
    const proposal = (await t.post('/v1/bridges/propose', { source: source() })).body.proposal;
    proposal.relationship_types = [];
    proposal.entity_types = proposal.entity_types.slice(0, 1);
    const staged = await t.post(`/v1/bridges/${id}/versions`, { proposal });
    assert.equal(staged.status, 201);
    const first = await audit(t, staged.body.delta_id);
    assert.equal(first.disposition, 'SafeToAct', JSON.stringify(first.findings));
    // Stage a mapping by hand onto a label the bridge's shape does not define.
    const { DeltaDraft } = await import('../../src/deltas/draft.js');
    const { writeGoverned } = await import('../../src/deltas/service.js');
    const draft = new DeltaDraft('bridge', 'hand-made mapping');
    const m = draft.createNode(['BridgeMapping'], {
      bridge_id: id,
      label: 'Ghost',
      record_type: 'Ghost',
      property_names: ['external_id'],
      identity_path: null,
    });
    draft.createRelationship(id, 'HAS_MAPPING', m);
    const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'test' };
    const outcome = await writeGoverned(harness().service.deps.graph, draft, actor, false);
    const verdict = await audit(t, outcome.deltaId);
    assert.equal(verdict.disposition, 'Blocked');
    assert.deepEqual(verdict.findings.map((f) => `${f.check}:${f.severity}`).sort(), [
      'bridge_identity:warning',
      'bridge_mappings:error',
    ]);
  });

  it('scopes and projects: bridges:write is needed to create, and another project sees a 404', async () => {
    const t = await newTenant(0);
    const id = await githubBridge(t);
    const readOnly = await t.keyWith({ scopes: ['bridges:read'] });
    const refused = await call('POST', '/v1/bridges', { name: 'other', source: source() }, { key: readOnly });
    assert.equal(refused.status, 403);
    assert.match(JSON.stringify(refused.body.error), /bridges:write/);
    const other = await newTenant(0);
    assert.equal((await other.get(`/v1/bridges/${id}`)).status, 404);
    assert.equal((await other.post(`/v1/bridges/${id}/map`, { record_type: 'Issue', records: issues() })).status, 404);
  });
});
