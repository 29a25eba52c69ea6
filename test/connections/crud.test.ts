import assert from 'node:assert/strict';
import { newTenant, call, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { open } from '../../src/connections/secrets.js';
import { github, startStandIn, type StandIn } from './standins.js';
import { createConnection, get, githubConnection, graphHolds, jsonConnection, post, replies } from './support.js';

async function count(label: string, projectId: string): Promise<number> {
  const rows = await harness().service.deps.graph.read((tx) =>
    tx.runText(`MATCH (n:${label}) WHERE n.project_id = $p RETURN count(n) AS c`, { p: projectId }),
  );
  return Number(rows[0]?.c);
}

describe('connections: test, create, read, edit, revoke', function () {
  this.timeout(120_000);
  let gh: StandIn;
  let t: Tenant;

  before(async () => {
    gh = await startStandIn(github);
    t = await newTenant();
  });
  after(() => gh.close());

  it('POST /v1/connections/test checks a pasted token (identity, checks, latency) and stores nothing', async () => {
    const reply = await post(t, '/v1/connections/test', {
      kind: 'github_issues',
      config: { repo: 'acme/widgets', base_url: gh.url },
      secret: { token: gh.token },
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.ok, true);
    assert.deepEqual(reply.body.identity, { login: 'octo', id: 42 });
    assert.deepEqual(
      reply.body.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok]),
      [
        ['reachable', true],
        ['authenticated', true],
        ['scope', true],
      ],
    );
    assert.ok(reply.body.latency_ms >= 0);
    assert.equal(
      gh.requests.at(-1)?.authorization,
      `Bearer ${gh.token}`,
      'the token travels in the Authorization header',
    );
    assert.equal(await count('Connection', t.projectId), 0);
    assert.equal(await count('ConnectionSecret', t.projectId), 0);
  });

  it('create answers the governed write and shows the secret only as set, fingerprint and set_at; the sealed value is bound to the connection', async () => {
    const reply = await post(t, '/v1/connections', githubConnection(gh));
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.status, 'applied');
    assert.equal(reply.body.applied, true);
    const c = reply.body.connection;
    assert.equal(reply.body.id, c.id);
    assert.equal(c.status, 'untested');
    assert.equal(c.secret.set, true);
    assert.match(c.secret.fingerprint, /^hmac:[0-9a-f]{16}$/);
    const read = await get(t, `/v1/connections/${c.id}`);
    assert.deepEqual(read.body.connection.secret, c.secret);
    assert.equal((await get(t, '/v1/connections')).body.connections.length, 1);
    const delta = await get(t, `/v1/deltas/${reply.body.delta_id}`);
    const created = delta.body.delta.changes.filter((ch: { op: string }) => ch.op === 'create_node');
    assert.deepEqual(
      created.map((ch: { labels: string[] }) => ch.labels),
      [['Connection']],
      'the delta creates the connection node',
    );
    const keys = Object.keys(created[0].properties);
    assert.ok(
      ['ciphertext', 'iv', 'tag', 'token', 'secret', 'fingerprint', 'key_id'].every((k) => !keys.includes(k)),
      'the delta carries no secret: a revert cannot bring one back',
    );
    assert.ok(keys.includes('config_json'));
    assert.ok(
      replies.every((r) => !r.includes(gh.token)),
      'no reply carries the token',
    );
    assert.equal(await graphHolds(gh.token), 0, 'no graph property holds the token');
    const sealed = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        'MATCH (s:ConnectionSecret {connection_id: $id}) RETURN s.ciphertext AS ciphertext, s.iv AS iv, s.tag AS tag, s.key_id AS key_id',
        { id: c.id },
      ),
    );
    const row = sealed[0] as { ciphertext: string; iv: string; tag: string; key_id: string };
    const secrets = harness().config.secrets;
    assert.equal(open(secrets, t.projectId, c.id, row), gh.token);
    assert.throws(
      () => open(secrets, t.projectId, '00000000-0000-4000-8000-000000000000', row),
      'associated data binds the connection',
    );
    const tested = await post(t, `/v1/connections/${c.id}/test`, {});
    assert.equal(tested.body.status, 'active');
  });

  it('without a secrets key, creating a connection is 503 secrets_unavailable and nothing is stored', async () => {
    const secrets = harness().service.deps.config.secrets;
    const key = secrets.key;
    secrets.key = null;
    try {
      const before = await count('Connection', t.projectId);
      const reply = await post(t, '/v1/connections', githubConnection(gh, { name: 'no key' }));
      assert.equal(reply.status, 503);
      assert.equal(reply.body.error.code, 'secrets_unavailable');
      assert.equal(await count('Connection', t.projectId), before);
    } finally {
      secrets.key = key;
    }
  });

  it('moving base_url to another host without a new secret is 409 secret_rebind_required; with a new secret it is accepted', async () => {
    const id = await createConnection(t, githubConnection(gh, { name: 'rebind' }));
    const moved = await call(
      'PATCH',
      `/v1/connections/${id}`,
      { config: { repo: 'acme/widgets', base_url: 'https://attacker.example' } },
      { key: t.key },
    );
    assert.equal(moved.status, 409);
    assert.equal(moved.body.error.code, 'secret_rebind_required');
    const otherPort = await call(
      'PATCH',
      `/v1/connections/${id}`,
      { config: { repo: 'acme/widgets', base_url: gh.url.replace(/:\d+$/, ':1') } },
      { key: t.key },
    );
    assert.equal(otherPort.body.error?.code, 'secret_rebind_required', 'a port change is a rebind too');
    const samePlace = await call(
      'PATCH',
      `/v1/connections/${id}`,
      { config: { repo: 'acme/gadgets', base_url: gh.url } },
      { key: t.key },
    );
    assert.equal(samePlace.status, 200);
    assert.equal(samePlace.body.connection.config.repo, 'acme/gadgets');
    const rebound = await call(
      'PATCH',
      `/v1/connections/${id}`,
      { config: { repo: 'acme/widgets', base_url: 'https://ghe.example' }, secret: { token: 'ghp_newtoken_123' } },
      { key: t.key },
    );
    assert.equal(rebound.status, 200);
    assert.equal(rebound.body.connection.status, 'untested');
    assert.ok(!JSON.stringify(rebound.body).includes('ghp_newtoken_123'));
  });

  it('a private address is refused (400) unless configuration allows it, and nothing is sent there', async () => {
    const fetch = harness().service.deps.config.fetch;
    fetch.allowPrivate = false;
    const before = gh.requests.length;
    try {
      const reply = await post(t, '/v1/connections/test', {
        kind: 'github_issues',
        config: { repo: 'acme/widgets', base_url: gh.url },
        secret: { token: gh.token },
      });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 'invalid_request');
      assert.equal(gh.requests.length, before);
    } finally {
      fetch.allowPrivate = true;
    }
  });

  it('bad input is 400 naming the field; scopes are enforced; another project sees 404', async () => {
    const bad = await post(t, '/v1/connections', { ...githubConnection(gh), config: { repo: 'not a repo' } });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.error.details.fields.some((f: { field: string }) => f.field === '/body/config/repo'));
    const inQuery = await post(t, '/v1/connections', {
      ...githubConnection(gh),
      config: { repo: 'a/b', base_url: `${gh.url}/api?access_token=x` },
    });
    assert.equal(inQuery.status, 400, 'a URL with a query string is refused');
    // The pattern admits a host the WHATWG URL parser refuses: a 400 naming it, on every route, never a 500 later.
    const unparsable = { repo: 'a/b', base_url: 'http://\u{a2ff7}/x' };
    // A trailing control character parses alone (the parser strips it) but not once a path follows it.
    const controlled = { repo: 'a/b', base_url: 'http://e.\u0001/' };
    const before = await count('Connection', t.projectId);
    for (const [path, body] of [
      ['/v1/connections', { ...githubConnection(gh), config: unparsable }],
      ['/v1/connections/test', { kind: 'github_issues', config: unparsable, secret: { token: gh.token } }],
      ['/v1/connections', { ...githubConnection(gh), config: controlled }],
      ['/v1/connections/test', { kind: 'github_issues', config: controlled, secret: { token: gh.token } }],
    ] as const) {
      const refused = await post(t, path, body);
      assert.equal(refused.status, 400, `${path}: ${JSON.stringify(refused.body)}`);
      assert.deepEqual(
        refused.body.error.details.fields.map((f: { field: string }) => f.field),
        ['/body/config/base_url'],
      );
    }
    const stored = await createConnection(t, githubConnection(gh, { name: 'to patch' }));
    const patched = await call(
      'PATCH',
      `/v1/connections/${stored}`,
      { config: unparsable, secret: { token: 'x' } },
      {
        key: t.key,
      },
    );
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    assert.equal(await count('Connection', t.projectId), before + 1, 'nothing stored for the refused create');
    const readOnly = await t.keyWith({ scopes: ['connections:read'] });
    const denied = await call('POST', '/v1/connections', githubConnection(gh), { key: readOnly });
    assert.equal(denied.status, 403);
    assert.match(JSON.stringify(denied.body), /connections:write/);
    const id = await createConnection(t, githubConnection(gh, { name: 'mine' }));
    const other = await newTenant();
    assert.equal((await other.get(`/v1/connections/${id}`)).status, 404);
    assert.equal((await other.post(`/v1/connections/${id}/sync`, {})).status, 404);
  });

  it('a target or pagination object must name its route or type: an empty one is a 400 naming it, never a default that resets a PATCH', async () => {
    const emptyTarget = await post(t, '/v1/connections', githubConnection(gh, { name: 'empty target', target: {} }));
    assert.equal(emptyTarget.status, 400, JSON.stringify(emptyTarget.body));
    assert.deepEqual(
      emptyTarget.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/body/target/route'],
    );
    const emptyPagination = await post(
      t,
      '/v1/connections',
      jsonConnection(gh, {
        name: 'empty pagination',
        config: { ...(jsonConnection(gh).config as object), pagination: {} },
      }),
    );
    assert.equal(emptyPagination.status, 400, JSON.stringify(emptyPagination.body));
    assert.deepEqual(
      emptyPagination.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/body/config/pagination/type'],
    );

    const routed = await createConnection(
      t,
      githubConnection(gh, { name: 'to submissions', target: { route: 'submission' } }),
    );
    const patched = await call('PATCH', `/v1/connections/${routed}`, { target: {} }, { key: t.key });
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    assert.equal((await get(t, `/v1/connections/${routed}`)).body.connection.target.route, 'submission');

    const withoutTarget = githubConnection(gh, { name: 'no target' });
    delete withoutTarget.target;
    const created = await post(t, '/v1/connections', withoutTarget);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.connection.target.route, 'document');
  });

  it('pause and resume; DELETE destroys the secret: revoked, no sealed value left, syncs refused', async () => {
    const id = await createConnection(t, githubConnection(gh, { name: 'to revoke' }));
    assert.equal((await post(t, `/v1/connections/${id}/pause`, {})).body.connection.status, 'paused');
    assert.equal((await post(t, `/v1/connections/${id}/sync`, {})).status, 409);
    assert.equal((await post(t, `/v1/connections/${id}/resume`, {})).body.connection.status, 'untested');
    const deleted = await call('DELETE', `/v1/connections/${id}`, undefined, { key: t.key });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.connection.status, 'revoked');
    assert.equal(deleted.body.connection.secret.set, false);
    const rows = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (s:ConnectionSecret {connection_id: $id}) RETURN count(s) AS c', { id }),
    );
    assert.equal(Number(rows[0]?.c), 0);
    assert.equal((await post(t, `/v1/connections/${id}/sync`, {})).status, 409);
  });

  it('a connection whose create is rejected or reverted takes its sealed secret with it', async () => {
    const secrets = async (id: string) => {
      const rows = await harness().service.deps.graph.read((tx) =>
        tx.runText('MATCH (s:ConnectionSecret {connection_id: $id}) RETURN count(s) AS c', { id }),
      );
      return Number(rows[0]?.c);
    };
    const staged = await post(t, '/v1/connections', githubConnection(gh, { name: 'rejected', apply: false }));
    assert.equal(staged.status, 201, JSON.stringify(staged.body));
    assert.equal(staged.body.status, 'staged');
    const rejectedId = String(staged.body.connection.id);
    assert.equal(await secrets(rejectedId), 1, 'sealed while the create awaits review');
    assert.equal((await post(t, `/v1/deltas/${String(staged.body.delta_id)}/reject`, {})).status, 200);
    assert.equal(await secrets(rejectedId), 0);

    const applied = await post(t, '/v1/connections', githubConnection(gh, { name: 'reverted' }));
    assert.equal(applied.status, 201);
    const revertedId = String(applied.body.connection.id);
    assert.equal(await secrets(revertedId), 1);
    assert.equal((await post(t, `/v1/deltas/${String(applied.body.delta_id)}/revert`, {})).status, 200);
    assert.equal(await secrets(revertedId), 0);
    assert.equal((await get(t, `/v1/connections/${revertedId}`)).status, 404);

    // Benign: rejecting another delta of the project leaves a live connection's secret alone.
    const kept = await createConnection(t, githubConnection(gh, { name: 'kept' }));
    const other = await post(t, '/v1/memories', { content: 'unrelated staged memory', kind: 'fact', apply: false });
    assert.equal((await post(t, `/v1/deltas/${String(other.body.delta_id)}/reject`, {})).status, 200);
    assert.equal(await secrets(kept), 1);
  });
});
