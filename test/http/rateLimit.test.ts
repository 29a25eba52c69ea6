import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import type { Deps } from '../../src/http/deps.js';
import type { Graph } from '../../src/db/graph.js';
import { UnknownKeyCache, verifyKey } from '../../src/auth/keys.js';
import { allRoutes } from '../../src/routes.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

describe('per-key rate limiting', () => {
  it('past the burst a key gets 429 with Retry-After and RateLimit headers, other keys do not', async () => {
    const base = harness().service.deps;
    const deps = {
      ...base,
      config: {
        ...base.config,
        rateLimit: { ...base.config.rateLimit, perSecond: 1, burst: 3, addressPerSecond: 1000, addressBurst: 1000 },
      },
    };
    const server = http.createServer(buildApp(deps, allRoutes(deps)).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const a = await newTenant(0);
      const b = await newTenant(0);
      const get = (key: string) => fetch(`${url}/v1/project`, { headers: { Authorization: `Bearer ${key}` } });
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i += 1) {
        last = await get(a.key);
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.ok(Number(last?.headers.get('retry-after')) >= 1);
      assert.equal(last?.headers.get('ratelimit-remaining'), '0');
      const body = (await last?.json()) as { error: { code: string } };
      assert.equal(body.error.code, 'rate_limited');
      assert.equal((await get(b.key)).status, 200);
    } finally {
      server.close();
    }
  });

  it('per client address, bad and unknown keys are limited before authentication: 429 with Retry-After', async () => {
    const base = harness().service.deps;
    const deps: Deps = {
      ...base,
      config: {
        ...base.config,
        rateLimit: { ...base.config.rateLimit, perSecond: 1000, burst: 1000, addressPerSecond: 1, addressBurst: 3 },
      },
    };
    const server = http.createServer(buildApp(deps, allRoutes(deps)).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const bad = `gks_${'A'.repeat(12)}_${'b'.repeat(43)}`;
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i += 1) {
        last = await fetch(`${url}/v1/project`, { headers: { Authorization: `Bearer ${bad}` } });
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429]);
      assert.ok(Number(last?.headers.get('retry-after')) >= 1);
      const body = (await last?.json()) as { error: { code: string } };
      assert.equal(body.error.code, 'rate_limited');
    } finally {
      server.close();
    }
  });

  it('an unknown key is remembered briefly (no second read); a known key is read every time, so revocation is immediate', async () => {
    const real = harness().service.deps.graph;
    let reads = 0;
    // Counts the graph reads key verification makes (it reads through readOne, one pipelined statement).
    const counting = {
      read: (work: Parameters<Graph['read']>[0]) => {
        reads += 1;
        return real.read(work);
      },
      readOne: (...args: Parameters<Graph['readOne']>) => {
        reads += 1;
        return real.readOne(...args);
      },
    } as unknown as Graph;
    const cache = new UnknownKeyCache();
    const unknown = `gks_${'C'.repeat(12)}_${'d'.repeat(43)}`;
    assert.equal((await verifyKey(counting, unknown, cache)).ok, false);
    assert.equal((await verifyKey(counting, unknown, cache)).ok, false);
    assert.equal(reads, 1);
    const t = await newTenant(0);
    assert.equal((await verifyKey(counting, t.key, cache)).ok, true);
    assert.equal((await verifyKey(counting, t.key, cache)).ok, true);
    assert.equal(reads, 3);
  });
});
