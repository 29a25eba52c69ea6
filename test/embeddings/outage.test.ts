// The drain after an outage (issue 58): both embedding engines killed while the worker drains a backlog, under
// writers and searchers; once the supervisor has them back, every node that was queued gets its vector, and the
// vector index finds it, while the writers still write (their fresh memories never hold the older backlog back).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { readBacklog } from '../../src/embeddings/status.js';
import { EmbeddingWorker } from '../../src/embeddings/worker.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const graph = () => harness().service.deps.graph;

function runtime() {
  const r = harness().service.deps.runtime.embeddings;
  if (!r?.embedder || !r.worker) throw new Error('the test harness runs the embedded engine and its worker');
  return { embedder: r.embedder, worker: r.worker };
}

/** Kills an engine this test process supervises (checked by parent pid), as the supervisor would meet a crash. */
function kill(name: string): void {
  const supervisor = harness().endpoints.supervisors.find((s) => s.name === name);
  assert.ok(supervisor, `${name} is not supervised by this test run`);
  const pid = supervisor.status().pid;
  assert.ok(pid, `${name} has no pid`);
  const ppid = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
  assert.equal(ppid, process.pid, `${name} pid ${pid} is not a child of this test process`);
  process.kill(pid, 'SIGKILL');
}

function running(name: string): boolean {
  return (
    harness()
      .endpoints.supervisors.find((s) => s.name === name)
      ?.status().state === 'running'
  );
}

interface NodeVector {
  id: string;
  vector: number[] | null;
  model: string | null;
  queued: string | null;
  error: string | null;
}

async function vectorsOf(projectId: string): Promise<NodeVector[]> {
  return (await graph().read((tx) =>
    tx.runText(
      'MATCH (m:Memory {project_id: $p}) RETURN m.id AS id, m.embedding AS vector, m.embedding_model AS model, ' +
        'm.embedding_queued_at AS queued, m.embedding_error AS error',
      { p: projectId },
    ),
  )) as unknown as NodeVector[];
}

/** What waits in the vector queue, by labels (what an earlier test left there, when it does not drain). */
async function left(): Promise<string> {
  const rows = await graph().read((tx) =>
    tx.runText(
      'MATCH (n) WHERE n.embedding_queued_at IS NOT NULL RETURN labels(n) AS labels, count(*) AS n, ' +
        'min(n.embedding_queued_at) AS oldest',
    ),
  );
  return JSON.stringify(rows);
}

/**
 * Whether the memory vector index answers this node among the 100 nearest to its own vector: the first depth search by
 * meaning asks (FIRST_K). Not the 10 nearest: the index is approximate (HNSW), and this test writes dozens of
 * near-identical notes beside every other test's, so a node's own vector may lose its place among ten look-alikes
 * (once in a full run) though it is in the index.
 */
async function indexFinds(node: NodeVector): Promise<boolean> {
  const rows = await graph().read((tx) =>
    tx.runText("CALL db.index.vector.queryNodes('memory_embedding', 100, $vector) YIELD node RETURN node.id AS id", {
      vector: node.vector,
    }),
  );
  return rows.some((r) => r.id === node.id);
}

describe('Embeddings: the drain after an outage', function () {
  this.timeout(600_000);

  it('both engines killed mid-drain under writers and searchers: every queued memory gets a vector the index finds, while the writers still write', async () => {
    const t = await newTenant(0);
    const { embedder, worker: served } = runtime();
    // The backlog is this test's own: what earlier tests left queued (a thousand imported memories of the console's
    // test) drains first, else the oldest-first quarter of each batch would serve theirs in the 90 s below.
    const quiet = Date.now() + 240_000;
    while ((await readBacklog(graph())).count > 0) {
      if (Date.now() > quiet) assert.fail(`the queue earlier tests left did not drain within 240 s: ${await left()}`);
      await sleep(500);
    }
    // A worker of its own, whose "fresh" window is seconds instead of a minute: what was queued before the outage
    // is then older than fresh by the time the engines are back, as after any outage longer than the window.
    await served.stop();
    const worker = new EmbeddingWorker(graph(), embedder, harness().service.deps.logger, {
      batchSize: 16,
      idleMs: 250,
      freshMs: 3_000,
    });
    let stop = false;
    const written: string[] = [];
    const failures: string[] = [];
    let n = 0;
    try {
      // A backlog: 64 memories in one batch, then the worker drains it while 2 writers and 2 searchers run.
      const batch = await t.post('/v1/memories', {
        memories: Array.from({ length: 64 }, (_, i) => ({ content: `Backlog note ${i} about harbour cranes.` })),
      });
      assert.equal(batch.status, 201, JSON.stringify(batch.body));
      written.push(...batch.body.memories.map((m: { id: string }) => m.id));
      const writer = async (w: number) => {
        while (!stop) {
          const reply = await t.post('/v1/memories', { content: `Writer ${w} note ${(n += 1)} on tide tables.` });
          if (reply.status === 201) written.push(String(reply.body.id));
          else failures.push(`write answered ${reply.status}`);
          await sleep(400);
        }
      };
      const searcher = async (s: number) => {
        for (let i = 0; !stop; i += 1) {
          const r = await t.post('/v1/memories/search', { query: `ferry crane ${s} ${i}`, mode: 'hybrid', limit: 5 });
          if (r.status >= 500) failures.push(`search answered ${r.status}`);
          await sleep(200);
        }
      };
      worker.start();
      const load = [writer(0), writer(1), searcher(0), searcher(1)];

      // Mid-drain: some of the backlog has vectors, some is still queued.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const nodes = await vectorsOf(t.projectId);
        const done = nodes.filter((x) => x.vector).length;
        if (done >= 1 && nodes.length - done >= 16) break;
        assert.ok(Date.now() < deadline, `no mid-drain moment within 60 s (${done} of ${nodes.length} embedded)`);
        await sleep(50);
      }
      kill('embeddings');
      kill('embeddings-queries');
      // The supervisor restarts both; the probe sees them again.
      const back = Date.now() + 120_000;
      while (!(running('embeddings') && running('embeddings-queries') && embedder.available())) {
        assert.ok(Date.now() < back, 'the engines were not back within 120 s');
        await sleep(200);
      }
      const queuedBefore = [...written];
      // Every memory queued before the engines came back gets its vector while the writers go on writing.
      const drained = Date.now() + 90_000;
      for (;;) {
        const nodes = new Map((await vectorsOf(t.projectId)).map((x) => [x.id, x]));
        const waiting = queuedBefore.filter((id) => !nodes.get(id)?.vector);
        if (waiting.length === 0) break;
        assert.ok(
          Date.now() < drained,
          `${waiting.length} of the ${queuedBefore.length} memories queued before the engines were back still ` +
            'have no vector 90 s later, with the writers writing',
        );
        await sleep(500);
      }
      stop = true;
      await Promise.all(load);
      assert.deepEqual(
        failures,
        [],
        'no request failed: writes never wait for embeddings, searches fall back to words',
      );
      // Then the rest: what the writers queued last.
      const rest = Date.now() + 60_000;
      while ((await vectorsOf(t.projectId)).some((x) => x.queued !== null)) {
        assert.ok(Date.now() < rest, 'the queue did not drain within 60 s of the writers stopping');
        await sleep(250);
      }
      const nodes = await vectorsOf(t.projectId);
      assert.ok(nodes.length >= written.length, `${nodes.length} memories in the graph, ${written.length} written`);
      for (const node of nodes) {
        assert.equal(node.vector?.length, 384, `memory ${node.id} has no vector`);
        assert.equal(node.model, embedder.model.id);
        assert.equal(node.queued, null);
        assert.equal(node.error, null, `memory ${node.id} was set aside: ${node.error}`);
      }
      const missed = [];
      for (const node of nodes) if (!(await indexFinds(node))) missed.push(node.id);
      assert.deepEqual(missed, [], 'memories whose vector the vector index does not find');
    } finally {
      stop = true;
      await worker.stop();
      served.start();
    }
  });
});
