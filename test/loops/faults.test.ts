import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import { allRoutes } from '../../src/routes.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { allEvents, createDocument, GENERAL_SHAPE_ID, longStory, waitForLoop } from './support.js';

/** A loop worker in its own process, as ops would run it (npm run worker). */
function startWorkerProcess(taskQueue: string): Promise<ChildProcess> {
  const { endpoints } = harness();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/workerMain.ts'], {
    env: { ...process.env, NEO4J_URI: endpoints.neo4jUri, TEMPORAL_ADDRESS: endpoints.temporalAddress, TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker did not start')), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker polling')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

describe('loop faults', function () {
  this.timeout(300_000);

  it('a worker killed mid-loop: when a worker returns the loop resumes and completes once', async () => {
    const taskQueue = `gks-loops-crash-${Date.now()}`;
    const base = harness().service.deps;
    const deps = { ...base, config: { ...base.config, temporal: { ...base.config.temporal, taskQueue } } };
    const server = http.createServer(buildApp(deps, allRoutes(deps)).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    let worker = await startWorkerProcess(taskQueue);
    try {
      const t = await newTenant(10_000);
      const doc = await createDocument(t, longStory(150));
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/loops`, {
        method: 'POST', headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'graph_extraction', goal: 'survive a crash', context: { source_ids: [doc] }, schema: { shape_ids: [GENERAL_SHAPE_ID] }, loop: { max_iterations: 4, quality_threshold: 1 } }),
      });
      const started = (await response.json()) as { loop_id: string; delta_id: string };
      assert.equal(response.status, 202);
      const deadline = Date.now() + 120_000;
      while ((await t.get(`/v1/loops/${started.loop_id}/checkpoints`)).body.checkpoints.length === 0) {
        if (Date.now() > deadline) throw new Error('no checkpoint before the crash');
        await new Promise((r) => setTimeout(r, 100));
      }
      worker.kill('SIGKILL');
      await new Promise((r) => worker.once('exit', r));
      assert.notEqual((await t.get(`/v1/loops/${started.loop_id}`)).body.status, 'completed');
      worker = await startWorkerProcess(taskQueue);

      const status = await waitForLoop(t, started.loop_id, 240_000);
      assert.equal(status.status, 'completed');
      const checkpoints = (await t.get(`/v1/loops/${started.loop_id}/checkpoints`)).body.checkpoints;
      assert.deepEqual(checkpoints.map((c: { iteration: number }) => c.iteration), [1, 2, 3, 4]);
      const events = await allEvents(t, started.loop_id, 1000);
      const finished = events.filter((e) => e.activity_name === 'finishLoop' && e.type === 'activity_task_completed');
      assert.equal(finished.length, 1);
      const [row] = await base.graph.read((tx) => tx.runText(
        `MATCH (:Delta {id: $d})-[:CREATED]->(n:Entity) RETURN count(n) AS nodes, count(DISTINCT n.pending_identity_key) AS identities`,
        { d: started.delta_id }));
      assert.ok(Number(row?.nodes) > 0);
      assert.equal(row?.nodes, row?.identities, 'nothing was staged twice');
      const settles = (await t.get('/v1/credits')).body.entries.filter((e: { kind: string; loop_id: string }) => e.kind === 'settle' && e.loop_id === started.loop_id);
      assert.equal(settles.length, 1, 'credits settled once');
    } finally {
      worker.kill('SIGTERM');
      server.close();
    }
  });
});
