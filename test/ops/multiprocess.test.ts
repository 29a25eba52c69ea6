import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { grantCredits } from '../../src/credits/service.js';
import { newTenant, type Reply, type Tenant } from '../support/api.js';
import { startApiProcess, type ApiProcess } from '../support/apiProcess.js';
import { harness } from '../support/harness.js';
import { startWorkerProcess } from '../support/workerProcess.js';
import { createDocument, GENERAL_SHAPE_ID, STORY } from '../loops/support.js';

/** The same call sent to the harness's API (even i) or to the second API process (odd i). */
async function via(
  i: number,
  second: ApiProcess,
  t: Tenant,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const base = i % 2 === 0 ? harness().url : second.url;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const extraction = (sourceId: string) => ({
  kind: 'graph_extraction',
  goal: 'map who works where',
  context: { source_ids: [sourceId] },
  schema: { shape_ids: [GENERAL_SHAPE_ID] },
  loop: { max_iterations: 1 },
});

describe('multi-process mode: two API processes and two workers on one Neo4j and one Temporal', function () {
  this.timeout(600_000);
  let second: ApiProcess;
  let worker: ChildProcess;

  before(async () => {
    // The harness runs the first API and a worker in this process; a second of each runs apart.
    [second, worker] = await Promise.all([startApiProcess(), startWorkerProcess(harness().config.temporal.taskQueue)]);
  });

  after(async () => {
    await second?.stop();
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
  });

  it('one Idempotency-Key sent to both processes at once writes once, and both replay that one answer', async () => {
    const t = await newTenant();
    const body = { content: `Idempotent across processes ${Date.now()}.`, kind: 'fact' };
    const headers = { 'Idempotency-Key': `mp-${Date.now()}` };
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => via(i, second, t, 'POST', '/v1/memories', body, headers)),
    );
    for (const r of replies) assert.ok([201, 409].includes(r.status), `${r.status} ${JSON.stringify(r.body)}`);
    const created = replies.filter((r) => r.status === 201);
    assert.ok(created.length >= 1);
    const ids = new Set(created.map((r) => r.body.id));
    assert.equal(ids.size, 1, `several memories: ${[...ids].join(', ')}`);
    const [row] = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (m:Memory {project_id: $p, content: $c}) RETURN count(m) AS n', {
        p: t.projectId,
        c: body.content,
      }),
    );
    assert.equal(row?.n, 1, 'the graph holds the memory once');
    for (const i of [0, 1]) {
      const replay = await via(i, second, t, 'POST', '/v1/memories', body, headers);
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(replay.body.id, [...ids][0]);
    }
  });

  it('credits for exactly one loop: starts spread over both processes start exactly one', async () => {
    const t = await newTenant(0);
    const doc = await createDocument(t, STORY);
    const plan = await t.post('/v1/loops', { ...extraction(doc), dry_run: true });
    await grantCredits(harness().service.deps.graph, t.organizationId, plan.body.plan.credits.estimate, 'one loop');
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => via(i, second, t, 'POST', '/v1/loops', extraction(doc))),
    );
    assert.deepEqual(
      replies.map((r) => r.status).sort(),
      [202, 402, 402, 402, 402, 402],
      JSON.stringify(replies.map((r) => r.body.error?.code ?? r.status)),
    );
    const credits = (await t.get('/v1/credits')).body;
    assert.ok(credits.balance >= 0, `balance ${credits.balance}`);
    const reserves = credits.entries.filter((e: { kind: string }) => e.kind === 'reserve');
    assert.equal(reserves.length, 1, JSON.stringify(credits.entries));
  });

  it('loops started through either process complete on either worker, each settled exactly once', async () => {
    const t = await newTenant(1_000);
    const doc = await createDocument(t, STORY);
    const started = await Promise.all(
      Array.from({ length: 4 }, (_, i) => via(i, second, t, 'POST', '/v1/loops', extraction(doc))),
    );
    for (const s of started) assert.equal(s.status, 202, JSON.stringify(s.body));
    const ids = started.map((s) => String(s.body.loop_id));
    const deadline = Date.now() + 300_000;
    for (const [i, id] of ids.entries()) {
      // Each loop is read through the process that did not start it.
      for (;;) {
        const reply = await via(i + 1, second, t, 'GET', `/v1/loops/${id}`);
        assert.equal(reply.status, 200);
        if (['completed', 'failed', 'cancelled'].includes(reply.body.status)) {
          assert.equal(reply.body.status, 'completed', JSON.stringify(reply.body));
          break;
        }
        if (Date.now() > deadline) throw new Error(`loop ${id} still ${reply.body.status}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    const credits = (await t.get('/v1/credits')).body;
    for (const id of ids) {
      const settles = credits.entries.filter(
        (e: { kind: string; loop_id: string }) => e.kind === 'settle' && e.loop_id === id,
      );
      assert.equal(settles.length, 1, `loop ${id} settled ${settles.length} times`);
    }
  });
});
