import assert from 'node:assert/strict';
import { CONNECTORS, callerFor } from '../../src/connections/connectors/index.js';
import { UpstreamError } from '../../src/connections/http.js';
import type { HttpJsonConfig } from '../../src/connections/types.js';
import { newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { startStandIn, type StandIn } from './standins.js';
import { createConnection, jsonConnection, post } from './support.js';
import { call } from '../support/api.js';

const patch = (t: Tenant, id: string, body: unknown) => call('PATCH', `/v1/connections/${id}`, body, { key: t.key });

describe("Connections: a stored token travels only to the connection's own origin", () => {
  let home: StandIn;
  let thief: StandIn;
  const servers: StandIn[] = [];
  before(async () => {
    home = await startStandIn(() => ({ status: 200, body: { data: { items: [] } } }));
    thief = await startStandIn(() => ({ status: 200, body: { data: { items: [] } } }));
    servers.push(home, thief);
  });
  after(async () => {
    for (const s of servers) await s.close();
  });

  const thiefHost = () => new URL(thief.url).host;
  const hostilePaths = () => [
    `//${thiefHost()}/steal`,
    `/\\${thiefHost()}/steal`,
    `/\\\\${thiefHost()}/steal`,
    '/api/../../steal',
    '/api/%2e%2e/steal',
    '/./api',
  ];

  it('a path that would name another host or climb out of base_url is a 400 naming the field, at create and PATCH', async () => {
    const t = await newTenant(0);
    for (const path of hostilePaths()) {
      const body = jsonConnection(home);
      (body.config as Record<string, unknown>).path = path;
      const created = await post(t, '/v1/connections', body);
      assert.equal(created.status, 400, `${path}: ${JSON.stringify(created.body)}`);
      assert.ok(
        JSON.stringify(created.body.error.details).includes('/body/config/path'),
        `${path}: ${JSON.stringify(created.body)}`,
      );
    }
    const id = await createConnection(t, jsonConnection(home));
    for (const path of hostilePaths()) {
      const patched = await patch(t, id, { config: { ...(jsonConnection(home).config as object), path } });
      assert.equal(patched.status, 400, `${path}: ${JSON.stringify(patched.body)}`);
    }
    // Nothing reached the other host, with or without the token.
    assert.equal(thief.requests.length, 0);
  });

  it('whatever a stored configuration says, a call off the bound origin is refused before anything is sent', async () => {
    // A configuration stored before the path rule existed: the check must still never send the token away.
    const config = { ...(jsonConnection(home).config as HttpJsonConfig), path: `//${thiefHost()}/steal` };
    const ctx = { kind: 'http_json' as const, config, token: home.token, since: null, heartbeat: () => undefined };
    const caller = callerFor(ctx, harness().config.fetch);
    await assert.rejects(
      caller(`${thief.url}/steal`, { headers: { authorization: `Bearer ${home.token}` } }),
      (e: unknown) => e instanceof UpstreamError && e.reason === 'refused' && /bound to/.test(e.message),
    );
    await assert.rejects(
      CONNECTORS.http_json.check(ctx, caller),
      (e: unknown) => e instanceof UpstreamError && e.reason === 'refused',
    );
    await assert.rejects(
      CONNECTORS.http_json.fetchPage(ctx, null, caller),
      (e: unknown) => e instanceof UpstreamError && e.reason === 'refused',
    );
    assert.equal(thief.requests.length, 0, 'the other host never saw a request');
    // The bound origin itself still answers.
    const ok = await caller(`${home.url}/api/items`, { headers: { authorization: `Bearer ${home.token}` } });
    assert.equal(ok.status, 200);
  });

  it('a redirect to another origin is not followed, so the token is never sent there', async () => {
    const redirecting = await startStandIn(() => ({
      status: 302,
      body: {},
      headers: { location: `${thief.url}/caught` },
    }));
    servers.push(redirecting);
    const config = { ...(jsonConnection(redirecting).config as HttpJsonConfig) };
    const ctx = {
      kind: 'http_json' as const,
      config,
      token: redirecting.token,
      since: null,
      heartbeat: () => undefined,
    };
    const answer = await callerFor(ctx, harness().config.fetch)(`${redirecting.url}/api/items`, {
      headers: { authorization: `Bearer ${redirecting.token}` },
    });
    assert.equal(answer.status, 302);
    assert.equal(thief.requests.length, 0);
  });
});
