import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { buildApp } from '../../src/http/app.js';
import { allRoutes } from '../../src/routes.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { jsonApi, makeIssues, startStandIn } from './standins.js';
import { deltaChanges, jsonConnection, waitForSync } from './support.js';

describe('long connection syncs', function () {
  this.timeout(300_000);

  it('continue as new every pages_per_run pages: one sync, every record staged once, events across the runs', async () => {
    // An API whose syncs continue as new every 2 pages (GKS_SYNC_PAGES_PER_RUN=2), on the shared worker.
    const base = harness().service.deps;
    const deps = { ...base, config: { ...base.config, syncPagesPerRun: 2 } };
    const server = http.createServer(buildApp(deps, allRoutes(deps)).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const api = await startStandIn(jsonApi);
    api.issues = makeIssues(14); // 3 records a page: 5 pages, so three workflow runs
    const connection = await Connection.connect({ address: harness().endpoints.temporalAddress });
    try {
      const t = await newTenant();
      const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
      const send = async (method: string, path: string, body?: unknown): Promise<Record<string, any>> => {
        const response = await fetch(`${root}${path}`, {
          method,
          headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        assert.ok(response.status < 300, `${method} ${path}: ${response.status}`);
        return (await response.json()) as Record<string, unknown>;
      };
      const id = String((await send('POST', '/v1/connections', jsonConnection(api))).connection.id);
      const started = await send('POST', `/v1/connections/${id}/sync`, {});
      const sync = await waitForSync(t, id, String(started.sync_id), 180_000);
      assert.equal(sync.status, 'completed', JSON.stringify(sync));
      assert.equal(sync.pages, 5);
      assert.deepEqual(sync.records, { seen: 14, created: 14, updated: 0, unchanged: 0 });
      assert.deepEqual(
        api.requests.filter((r) => r.path === '/api/items').map((r) => r.query.get('page') ?? '1'),
        ['1', '2', '3', '4', '5'],
        'each page fetched once, the next run resuming where the last stopped',
      );
      const documents = (await deltaChanges(t, String(started.delta_id))).filter(
        (c) => c.op === 'create_node' && c.labels?.includes('Document'),
      );
      assert.equal(new Set(documents.map((d) => d.node_id)).size, 14);
      assert.equal(documents.length, 14);

      // The sync record is completed by the chain's last activity; the workflow itself completes a moment
      // after (its last task). Its history is read once it has.
      const client = new Client({ connection, namespace: harness().config.temporal.namespace });
      await client.workflow.getHandle(`sync-${id}`).result();
      const events = (await send('GET', `/v1/connections/${id}/syncs/${String(started.sync_id)}/events?limit=1000`))
        .events as { sequence: number; type: string; activity_name: string | null; summary: string }[];
      const sequences = events.map((e) => e.sequence);
      assert.deepEqual(
        sequences,
        [...sequences].sort((a, b) => a - b),
      );
      assert.equal(new Set(sequences).size, sequences.length, 'sequences never repeat across runs');
      assert.equal(events.filter((e) => e.type === 'workflow_execution_continued_as_new').length, 2);
      assert.equal(events.filter((e) => e.activity_name === 'fetchPage' && /^Fetched page/.test(e.summary)).length, 5);
      assert.equal(events.at(-1)?.type, 'workflow_execution_completed');

      // Ops see the last run of the chain with the same search attributes as the first.
      const latest = await client.workflow.getHandle(`sync-${id}`).describe();
      assert.equal(latest.status.name, 'COMPLETED');
      assert.deepEqual(latest.searchAttributes.ConnectionId, [id]);
      assert.deepEqual(latest.searchAttributes.ProjectId, [t.projectId]);
    } finally {
      await connection.close();
      await api.close();
      await new Promise((r) => server.close(r));
    }
  });
});
