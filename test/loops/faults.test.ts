import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import { allRoutes } from '../../src/routes.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { startWorkerProcess } from '../support/workerProcess.js';
import { allEvents, createDocument, GENERAL_SHAPE_ID, longStory, waitForLoop } from './support.js';

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
      const doc = await createDocument(t, longStory(40)); // long enough to kill mid-loop, short enough for a loaded machine
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/loops`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          kind: 'graph_extraction',
          goal: 'survive a crash',
          context: { source_ids: [doc] },
          schema: { shape_ids: [GENERAL_SHAPE_ID] },
          loop: { max_iterations: 4, quality_threshold: 1 },
        }),
      });
      const started = (await response.json()) as { loop_id: string; delta_id: string };
      assert.equal(response.status, 202);
      const deadline = Date.now() + 240_000; // a loaded 2-core machine is slow to run the first iteration
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
      // Each iteration once, in order; the loop may stop before 4 when an iteration adds nothing new.
      const ran = checkpoints.map((c: { iteration: number }) => c.iteration);
      assert.deepEqual(
        ran,
        Array.from({ length: ran.length }, (_, i) => i + 1),
      );
      assert.ok(ran.length >= 2 && ran.length <= 4, JSON.stringify(ran));
      assert.equal(
        status.stop_reason,
        ran.length === 4
          ? checkpoints[3].entities_new + checkpoints[3].relationships_new === 0
            ? 'no_progress'
            : 'max_iterations'
          : 'no_progress',
      );
      const events = await allEvents(t, started.loop_id, 1000);
      const finished = events.filter((e) => e.activity_name === 'finishLoop' && e.type === 'activity_task_completed');
      assert.equal(finished.length, 1);
      const [row] = await base.graph.read((tx) =>
        tx.runText(
          `MATCH (:Delta {id: $d})-[:CREATED]->(n:Entity) RETURN count(n) AS nodes, count(DISTINCT n.pending_identity_key) AS identities`,
          { d: started.delta_id },
        ),
      );
      assert.ok(Number(row?.nodes) > 0);
      assert.equal(row?.nodes, row?.identities, 'nothing was staged twice');
      const settles = (await t.get('/v1/credits')).body.entries.filter(
        (e: { kind: string; loop_id: string }) => e.kind === 'settle' && e.loop_id === started.loop_id,
      );
      assert.equal(settles.length, 1, 'credits settled once');
    } finally {
      worker.kill('SIGTERM');
      server.close();
    }
  });
});

describe('a loop with the LLM extractor', function () {
  this.timeout(300_000);

  it('extracts through an OpenAI-compatible endpoint (a local stand-in) and stages what it answered', async () => {
    const requests: { model: string; messages: { content: string }[] }[] = [];
    const llm = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        requests.push(JSON.parse(raw) as { model: string; messages: { content: string }[] });
        const content = JSON.stringify({
          entities: [
            { name: 'Katherine Johnson', type: 'Person', properties: {} },
            { name: 'NASA', type: 'Organization', properties: {} },
          ],
          relationships: [
            { type: 'WORKS_FOR', from: 'Katherine Johnson', to: 'NASA', evidence: 'Katherine Johnson works for NASA.' },
          ],
        });
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
      });
    });
    await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
    const taskQueue = `gks-loops-llm-${Date.now()}`;
    const base = harness().service.deps;
    const deps = {
      ...base,
      config: {
        ...base.config,
        llm: { ...base.config.llm, baseUrl, model: 'stand-in-model' },
        temporal: { ...base.config.temporal, taskQueue },
      },
    };
    const server = http.createServer(buildApp(deps, allRoutes(deps)).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const worker = await startWorkerProcess(taskQueue, { LLM_BASE_URL: baseUrl, LLM_MODEL: 'stand-in-model' });
    try {
      const t = await newTenant(100);
      const doc = await createDocument(t, 'Katherine Johnson works for NASA.');
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/loops`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          kind: 'graph_extraction',
          goal: 'who works where',
          context: { source_ids: [doc] },
          schema: { shape_ids: [GENERAL_SHAPE_ID] },
          loop: { extractor: 'llm', max_iterations: 1 },
        }),
      });
      const started = (await response.json()) as { loop_id: string; delta_id: string };
      assert.equal(response.status, 202, JSON.stringify(started));
      const status = await waitForLoop(t, started.loop_id, 120_000);
      assert.equal(status.status, 'completed', JSON.stringify(status));
      assert.equal(requests[0]?.model, 'stand-in-model');
      assert.ok(requests[0]?.messages.some((m) => m.content.includes('Katherine Johnson works for NASA.')));
      const delta = (await t.get(`/v1/deltas/${started.delta_id}`)).body.delta;
      const names = delta.changes
        .map((c: { properties: { name?: string } | null }) => c.properties?.name)
        .filter(Boolean)
        .sort();
      assert.deepEqual(names, ['Katherine Johnson', 'NASA']);
      assert.ok(delta.changes.some((c: { type: string | null }) => c.type === 'WORKS_FOR'));
    } finally {
      worker.kill('SIGTERM');
      server.close();
      llm.close();
    }
  });
});
