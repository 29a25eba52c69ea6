import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import { allRoutes } from '../../src/routes.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { startWorkerProcess } from '../support/workerProcess.js';
import { jsonApi, makeIssues, startStandIn } from './standins.js';
import { deltaChanges, jsonConnection, waitForSync } from './support.js';

describe('connection sync faults', function () {
  this.timeout(300_000);

  it('a worker killed mid-sync: when a worker returns the sync completes once, every record staged exactly once', async () => {
    const taskQueue = `gks-sync-crash-${Date.now()}`;
    const base = harness().service.deps;
    const deps = { ...base, config: { ...base.config, temporal: { ...base.config.temporal, taskQueue } } };
    const server = http.createServer(buildApp(deps, allRoutes(deps)).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const api = await startStandIn(jsonApi);
    api.issues = makeIssues(9);
    api.holdPage = 2;
    let worker = await startWorkerProcess(taskQueue);
    try {
      const t = await newTenant();
      const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const send = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${root}${path}`, {
          method,
          headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
      };
      const created = await send('POST', '/v1/connections', jsonConnection(api));
      assert.equal(created.status, 201);
      const id = String(created.body.connection.id);
      const started = await send('POST', `/v1/connections/${id}/sync`, {});
      assert.equal(started.status, 202);
      const deadline = Date.now() + 120_000;
      while (!api.requests.some((r) => r.query.get('page') === '2')) {
        if (Date.now() > deadline) throw new Error('page 2 was never asked for');
        await new Promise((r) => setTimeout(r, 100));
      }
      worker.kill('SIGKILL');
      await new Promise((r) => worker.once('exit', r));
      assert.equal(
        (await send('GET', `/v1/connections/${id}/syncs/${started.body.sync_id}`)).body.sync.status,
        'running',
      );
      api.holdPage = null;
      api.release();
      worker = await startWorkerProcess(taskQueue);
      const sync = await waitForSync(t, id, String(started.body.sync_id), 180_000);
      assert.equal(sync.status, 'completed');
      assert.equal(sync.pages, 3);
      assert.deepEqual(sync.records, { seen: 9, created: 9, updated: 0, unchanged: 0 });
      const documents = (await deltaChanges(t, String(started.body.delta_id))).filter(
        (c) => c.op === 'create_node' && c.labels?.includes('Document'),
      );
      assert.equal(documents.length, 9);
      assert.equal(new Set(documents.map((d) => d.properties.external_id)).size, 9);
      const syncs = await send('GET', `/v1/connections/${id}/syncs`);
      assert.equal(syncs.body.syncs.length, 1, 'one run, completed once');
    } finally {
      worker.kill('SIGKILL');
      api.holdPage = null;
      await api.close();
      server.close();
    }
  });
});
