// Causal consistency with bookmarks (issue 58, docs/operations.md "Consistency across requests"), against the real
// Neo4j. One instance is never behind itself, so a follower that has not yet seen a write is stood in for by a
// bookmark one transaction ahead of the database: a read given it must wait until the database holds that
// transaction, and then see what it wrote, as a read on a follower given the bookmark of a write on the leader does.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { BOOKMARK_HEADER, BookmarkTokens } from '../../src/db/bookmarks.js';
import { Graph } from '../../src/db/graph.js';
import { TemporalGateway } from '../../src/temporal/connection.js';
import { call, newTenant } from '../support/api.js';
import { startApiProcess, type ApiProcess } from '../support/apiProcess.js';
import { bookmarkAhead, transactionOf } from '../support/bookmarks.js';
import { harness } from '../support/harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A second driver on the test graph, as another API process has. */
function secondGraph(): Graph {
  const { endpoints, config } = harness();
  return new Graph({
    uri: endpoints.neo4jUri,
    user: endpoints.neo4jAuth?.user ?? config.neo4j.user,
    password: endpoints.neo4jAuth?.password ?? config.neo4j.password,
    database: config.neo4j.database,
  });
}

/** A write of one probe node by a graph, with the bookmark it answered. */
async function writeProbe(graph: Graph, id: string): Promise<string> {
  const { bookmarks } = await graph.causally([], () =>
    graph.write((tx) => tx.runText('CREATE (:BookmarkProbe {id: $id})', { id })),
  );
  assert.equal(bookmarks.length, 1, `one bookmark answered: ${JSON.stringify(bookmarks)}`);
  return bookmarks[0]!;
}

/**
 * Runs `scenario` until the database committed nothing but its own writes while it ran (other work of the test
 * process, such as a webhook retry, may commit at any moment), at most 3 times. The scenario answers whether it
 * held (its second write was the very next transaction after its first).
 */
async function undisturbed(scenario: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) if (await scenario()) return;
  assert.fail('other transactions committed during each of 3 attempts');
}

describe('Bookmarks: causal consistency across drivers and processes', function () {
  this.timeout(120_000);
  let reader: Graph;
  let workers: { stop(): Promise<void>; start(): void }[] = [];
  before(async () => {
    reader = secondGraph();
    // The embedding and mention workers commit whenever their queues hold anything: out of the way of "the very
    // next transaction".
    const { runtime } = harness().service.deps;
    workers = [runtime.embeddings?.worker, runtime.mentions].filter((w) => !!w) as typeof workers;
    for (const w of workers) await w.stop();
  });
  after(async () => {
    for (const w of workers) w.start();
    await reader.close();
  });

  it('a read on another driver given the bookmark of a write it has not yet seen waits for that write and then reads it', async () => {
    const writer = harness().service.deps.graph;
    await undisturbed(async () => {
      const before = crypto.randomUUID();
      const next = crypto.randomUUID();
      const known = await writeProbe(writer, before);
      // The state one transaction on: what the writer's next write will make.
      let answered = false;
      const read = reader
        .causally([bookmarkAhead(known, 1)], () =>
          reader.read((tx) => tx.runText('MATCH (p:BookmarkProbe {id: $id}) RETURN p.id AS id', { id: next })),
        )
        .finally(() => (answered = true));
      await sleep(500);
      const early = answered;
      const written = await writeProbe(writer, next);
      const { value: rows, bookmarks } = await read;
      if (transactionOf(written) !== transactionOf(known) + 1) return false;
      assert.equal(early, false, 'the read answered before the database held the state its bookmark names');
      assert.deepEqual(rows, [{ id: next }], 'the read sees the write whose state its bookmark names');
      assert.ok(transactionOf(bookmarks[0]!) >= transactionOf(written), 'the read answers a bookmark as recent');
      return true;
    });
  });

  it('every authenticated answer carries X-Graph-Bookmark; sent back to another API process, its read waits for the state it names', async () => {
    const t = await newTenant(0);
    const tokens = new BookmarkTokens(harness().config.secrets.key);
    let other: ApiProcess | undefined;
    try {
      other = await startApiProcess();
      const created = await t.post('/v1/memories', { content: 'Written through the first process.' });
      assert.equal(created.status, 201);
      const token = created.headers.get(BOOKMARK_HEADER);
      assert.ok(token, 'a write answers its bookmark');
      const [written] = tokens.read(token);
      // Read back through the second process with the write's token: it is there.
      const headers = { [BOOKMARK_HEADER]: token };
      const read = await call('GET', `/v1/memories/${created.body.id}`, undefined, { key: t.key, headers });
      const second = other.url;
      const viaOther = await fetch(`${second}/v1/memories/${created.body.id}`, {
        headers: { Authorization: `Bearer ${t.key}`, ...headers },
      });
      assert.equal(read.status, 200);
      assert.equal(viaOther.status, 200);
      assert.ok(viaOther.headers.get(BOOKMARK_HEADER), 'a read answers its bookmark too');
      // A token one transaction ahead of the database: the second process's read waits until the database holds it.
      // The search is warmed first, so that without the wait it would answer well within the pause below.
      const search = (extra: Record<string, string>) =>
        fetch(`${second}/v1/memories/search`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json', ...extra },
          body: JSON.stringify({ query: 'lighthouse keeper', mode: 'lexical' }),
        });
      for (let i = 0; i < 5; i += 1) assert.equal((await search({})).status, 200);
      await undisturbed(async () => {
        const known = tokens.read((await t.post('/v1/memories', { content: 'A mark.' })).headers.get(BOOKMARK_HEADER)!);
        let answered = false;
        const ahead = tokens.issue([bookmarkAhead(known[0]!, 1)]);
        const searching = search({ [BOOKMARK_HEADER]: ahead }).finally(() => (answered = true));
        await sleep(1_500);
        const early = answered;
        const next = await t.post('/v1/memories', { content: 'The lighthouse keeper logs the storm.' });
        const found = await (await searching).json();
        if (transactionOf(tokens.read(next.headers.get(BOOKMARK_HEADER)!)[0]!) !== transactionOf(known[0]!) + 1)
          return false;
        assert.equal(early, false, 'the search answered before the database held the state its token names');
        assert.deepEqual(
          found.nodes.map((m: { id: string }) => m.id),
          [next.body.id],
        );
        return true;
      });
      assert.ok(transactionOf(written!) > 0);
    } finally {
      await other?.stop();
    }
  });

  it("a workflow carries its starting process's bookmarks to its activities: an activity on a worker waits until the graph holds them", async () => {
    const { endpoints, config } = harness();
    const writer = harness().service.deps.graph;
    let given: string[] = [];
    // A process whose bookmark manager is one transaction ahead of the database, as an API process's is of a
    // follower that has not yet seen its write.
    const starter = new TemporalGateway(
      {
        address: endpoints.temporalAddress,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
      },
      async () => given,
    );
    try {
      const client = await starter.getClient();
      await undisturbed(async () => {
        const known = await writeProbe(writer, crypto.randomUUID());
        given = [bookmarkAhead(known, 1)];
        let answered = false;
        const checked = client.workflow
          .execute('serviceCheck', {
            taskQueue: config.temporal.taskQueue,
            workflowId: `bookmark-check-${crypto.randomUUID()}`,
            args: ['bookmarks test'],
            workflowExecutionTimeout: '60 seconds',
          })
          .finally(() => (answered = true));
        await sleep(2_000);
        const early = answered;
        const written = await writeProbe(writer, crypto.randomUUID());
        await checked;
        if (transactionOf(written) !== transactionOf(known) + 1) return false;
        assert.equal(early, false, "the activity ran before the graph held its workflow's bookmarks");
        return true;
      });
    } finally {
      await starter.close();
    }
  });

  it('a token this deployment did not answer is a 400 naming the header, before anything is read or written', async () => {
    const t = await newTenant(0);
    const foreign = new BookmarkTokens(crypto.randomBytes(32));
    const own = new BookmarkTokens(harness().config.secrets.key);
    const mark = await t.post('/v1/memories', { content: 'A genuine mark.' });
    const genuine = mark.headers.get(BOOKMARK_HEADER)!;
    for (const token of [
      'not-a-token',
      foreign.issue(own.read(genuine)),
      genuine.replace(/\.[^.]+$/, ''),
      `${genuine.slice(0, 5)}A${genuine.slice(6)}`,
    ]) {
      const r = await t.post('/v1/memories', { content: 'Never written.' }, { headers: { [BOOKMARK_HEADER]: token } });
      assert.equal(r.status, 400, `${token}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.details.fields[0].field, '/headers/x-graph-bookmark');
    }
    const stored = await t.post('/v1/memories/search', { query: 'Never written', mode: 'lexical' });
    assert.equal(stored.body.count, 0);
    // Several tokens, comma-separated, as a client that merged answers sends them.
    const two = await t.get(`/v1/memories/${mark.body.id}`, {
      headers: { [BOOKMARK_HEADER]: `${genuine}, ${genuine}` },
    });
    assert.equal(two.status, 200, JSON.stringify(two.body));
  });
});
