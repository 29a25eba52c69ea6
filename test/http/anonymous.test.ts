import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import type { Deps } from '../../src/http/deps.js';
import { allRoutes } from '../../src/routes.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

/** A private app over the suite's engines, with its own limits. */
async function serve(
  rateLimit: Partial<Deps['config']['rateLimit']>,
  metrics: Partial<Deps['config']['metrics']> = {},
) {
  const base = harness().service.deps;
  const deps: Deps = {
    ...base,
    config: {
      ...base.config,
      rateLimit: { ...base.config.rateLimit, ...rateLimit },
      metrics: { ...base.config.metrics, ...metrics },
    },
  };
  const server = http.createServer(buildApp(deps, allRoutes(deps)).callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const badKey = `gks_${'Z'.repeat(12)}_${'q'.repeat(43)}`;

describe('Anonymous and failing callers', () => {
  it('failed authentications are limited per address, far tighter than requests: 429 with Retry-After', async () => {
    const app = await serve({ authFailuresPerSecond: 0.5, authFailuresBurst: 5 });
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 8; i += 1) {
        last = await fetch(`${app.url}/v1/project`, { headers: { Authorization: `Bearer ${badKey}` } });
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
      assert.ok(Number(last?.headers.get('retry-after')) >= 1);
      assert.equal(((await last?.json()) as { error: { code: string } }).error.code, 'rate_limited');
      // Successful requests spend nothing: a good key from a fresh server keeps answering.
      const good = await serve({ authFailuresPerSecond: 0.5, authFailuresBurst: 2 });
      try {
        const t = await newTenant(0);
        for (let i = 0; i < 6; i += 1) {
          const r = await fetch(`${good.url}/v1/project`, { headers: { Authorization: `Bearer ${t.key}` } });
          assert.equal(r.status, 200);
        }
      } finally {
        good.close();
      }
    } finally {
      app.close();
    }
  });

  it('an unauthenticated request is answered 401 without its body being read', async () => {
    const app = await serve({});
    try {
      const answer = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
        let sent = 0;
        let done = false;
        const req = http.request(`${app.url}/v1/memories`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': String(900_000) },
        });
        req.on('response', (res) => {
          done = true;
          res.resume();
          resolve({ status: res.statusCode ?? 0, sent });
          req.destroy();
        });
        req.on('error', (e) => (done ? undefined : reject(e)));
        // The body trickles in; a server that buffers it first would answer only after the last byte.
        req.write('{"content": "');
        const timer = setInterval(() => {
          if (done) return clearInterval(timer);
          if (sent >= 800_000) {
            clearInterval(timer);
            reject(new Error('the server waited for the whole body before answering'));
            return;
          }
          req.write('x'.repeat(1000));
          sent += 1000;
        }, 5);
      });
      assert.equal(answer.status, 401);
      assert.ok(answer.sent < 800_000, `answered after ${answer.sent} bytes`);
    } finally {
      app.close();
    }
  });

  it('a declared body past the limit is refused at once with 413, before authentication', async () => {
    const app = await serve({});
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${app.url}/v1/memories`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': String(500_000_000) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write('{');
      });
      assert.equal(status, 413);
    } finally {
      app.close();
    }
  });

  it('/metrics is open on a loopback-only service; beyond loopback it needs METRICS_TOKEN as a bearer token', async () => {
    const open = await serve({}, { token: null, loopbackOnly: true });
    const wide = await serve({}, { token: null, loopbackOnly: false });
    const tokened = await serve({}, { token: 'metrics-secret-1', loopbackOnly: false });
    try {
      assert.equal((await fetch(`${open.url}/metrics`)).status, 200);
      const refused = await fetch(`${wide.url}/metrics`);
      assert.equal(refused.status, 401);
      assert.match(await refused.text(), /METRICS_TOKEN/);
      assert.equal((await fetch(`${tokened.url}/metrics`)).status, 401);
      const wrong = await fetch(`${tokened.url}/metrics`, { headers: { Authorization: 'Bearer nope' } });
      assert.equal(wrong.status, 401);
      const right = await fetch(`${tokened.url}/metrics`, { headers: { Authorization: 'Bearer metrics-secret-1' } });
      assert.equal(right.status, 200);
      assert.match(await right.text(), /gks_http_requests_total|http_request/);
    } finally {
      open.close();
      wide.close();
      tokened.close();
    }
  });
});
