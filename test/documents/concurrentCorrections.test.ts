// Corrections of one document sent at once run one after the other: each takes the document's lock before it
// reads the chunks it replaces (docs/deltas.md, "Concurrent writes"). Before the lock, a re-index that read
// the chunks just before another re-index committed answered 404 ("A deletion names a node that is not
// committed") for a document that exists: one round in seven of a probe of three re-indexes at once. The
// window is a few milliseconds wide, so each test runs many rounds.
import assert from 'node:assert/strict';
import { call, newTenant, type Reply, type Tenant } from '../support/api.js';
import { graph } from '../preflight/support.js';
import { useRawDriver } from '../support/harness.js';

const ROUNDS = 20;

/** The committed chunks of the document: how many, how many its chunk_count says, and their distinct openings. */
async function chunksOf(id: string): Promise<{ chunks: number; expected: number | null; texts: string[] }> {
  const [row] = await graph().read((tx) =>
    tx.runText(
      `OPTIONAL MATCH (d:Document {id: $id}) WHERE NOT d:Pending
       OPTIONAL MATCH (c:Chunk {document_id: $id}) WHERE NOT c:Pending
       RETURN d.chunk_count AS expected, count(c) AS chunks, collect(DISTINCT split(c.text, '.')[0]) AS texts`,
      { id },
    ),
  );
  return {
    chunks: Number(row?.chunks),
    expected: row?.expected === null ? null : Number(row?.expected),
    texts: (row?.texts as string[]).sort(),
  };
}

async function handbook(t: Tenant): Promise<string> {
  const created = await t.post('/v1/documents', { title: 'Handbook', content: 'First version. '.repeat(60) });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id as string;
}

const reindex = (t: Tenant, id: string, text: string, repeat: number): Promise<Reply> =>
  call('POST', `/v1/documents/${id}/reindex`, { content: `${text}. `.repeat(repeat) }, { key: t.key });

describe('concurrent corrections of one document', function () {
  this.timeout(300_000);
  const driver = useRawDriver();

  it("a re-index that waited for the document's delete answers 404 and writes nothing", async () => {
    const t = await newTenant(0);
    const id = await handbook(t);
    const session = driver().session();
    const tx = session.beginTransaction();
    let reply: Promise<Reply> | undefined;
    try {
      await tx.run('MATCH (d:Document {id: $id}) SET d.probe_lock = true', { id });
      reply = reindex(t, id, 'Second version', 80);
      await new Promise((r) => setTimeout(r, 1_000));
      // What a delete does, committed while the re-index waits for the document's lock.
      await tx.run('MATCH (d:Document {id: $id}) OPTIONAL MATCH (d)-[:HAS_CHUNK]->(c) DETACH DELETE c, d', { id });
      await tx.commit();
    } finally {
      await session.close();
    }
    const answered = await reply;
    assert.equal(answered.status, 404, JSON.stringify(answered.body));
    assert.deepEqual(await chunksOf(id), { chunks: 0, expected: null, texts: [] });
  });

  it('three re-indexes at once all apply, each replacing the chunks the one before it made', async () => {
    const t = await newTenant(0);
    for (let round = 0; round < ROUNDS; round += 1) {
      const id = await handbook(t);
      const replies = await Promise.all([
        reindex(t, id, `Second version ${round}`, 80),
        reindex(t, id, `Third version ${round}`, 90),
        reindex(t, id, `Fourth version ${round}`, 40),
      ]);
      assert.deepEqual(
        replies.map((r) => r.status),
        [200, 200, 200],
        `round ${round}: ${JSON.stringify(replies.map((r) => r.body))}`,
      );
      const state = await chunksOf(id);
      assert.equal(state.texts.length, 1, `round ${round}: chunks of more than one version: ${state.texts.join(', ')}`);
      assert.equal(state.chunks, state.expected, `round ${round}`);
    }
  });

  it('a delete and re-indexes at once: the document goes with every chunk any of them made', async () => {
    const t = await newTenant(0);
    for (let round = 0; round < ROUNDS / 2; round += 1) {
      const id = await handbook(t);
      const [first, deleted, second] = await Promise.all([
        reindex(t, id, `Second version ${round}`, 80),
        call('DELETE', `/v1/documents/${id}?apply=true`, undefined, { key: t.key }),
        reindex(t, id, `Third version ${round}`, 90),
      ]);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      // Each re-index applied before the delete, or waited for it and found the document gone.
      for (const reply of [first, second]) assert.ok([200, 404].includes(reply.status), JSON.stringify(reply.body));
      assert.deepEqual(await chunksOf(id), { chunks: 0, expected: null, texts: [] }, `round ${round}`);
    }
  });
});
