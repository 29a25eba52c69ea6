import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import { allRoutes } from '../../src/routes.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

describe('per-key rate limiting', () => {
  it('past the burst a key gets 429 with Retry-After and RateLimit headers, other keys do not', async () => {
    const base = harness().service.deps;
    const deps = { ...base, config: { ...base.config, rateLimit: { perSecond: 1, burst: 3 } } };
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
});
