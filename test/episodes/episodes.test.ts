import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';

/** The episode's memories as the graph chains them: the contents along (:Memory)-[:NEXT]->(:Memory) from its first. */
async function chain(t: Tenant, key: string): Promise<{ path: string[]; members: number; nexts: number }> {
  const rows = await harness().service.deps.graph.read((tx) =>
    tx.runText(
      `MATCH (e:Episode {project_id: $p, key: $key}) WHERE NOT e:Pending
       MATCH (e)<-[:IN_EPISODE]-(m:Memory) WHERE NOT m:Pending
       WITH e, collect(m) AS ms
       OPTIONAL MATCH (first:Memory)-[:IN_EPISODE]->(e)
       WHERE NOT first:Pending AND NOT EXISTS { (:Memory)-[:NEXT]->(first) }
       OPTIONAL MATCH path = (first)-[:NEXT*0..]->(last:Memory) WHERE NOT EXISTS { (last)-[:NEXT]->() }
       WITH ms, path ORDER BY length(path) DESC LIMIT 1
       RETURN [n IN nodes(path) | n.content] AS path, size(ms) AS members,
              COUNT { (:Memory {project_id: $p})-[:NEXT]->(:Memory {project_id: $p}) } AS nexts`,
      { p: t.projectId, key },
    ),
  );
  const row = rows[0] as { path: string[] | null; members: number; nexts: number } | undefined;
  return { path: row?.path ?? [], members: Number(row?.members ?? 0), nexts: Number(row?.nexts ?? 0) };
}

const at = (minute: number) => `2024-05-08T13:${String(minute).padStart(2, '0')}:00.000Z`;

describe('episodes', () => {
  it('a batch in one episode is chained by NEXT in observed order, whatever order it was sent in', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/memories', {
      memories: [
        { content: 'Ana: third', episode: 'call-1', observed_at: at(3) },
        { content: 'Ana: first', episode: 'call-1', observed_at: at(1) },
        { content: 'Bo: second', episode: 'call-1', observed_at: at(2) },
      ],
    });
    assert.equal(reply.status, 201);
    const c = await chain(t, 'call-1');
    assert.deepEqual(c.path, ['Ana: first', 'Bo: second', 'Ana: third']);
    assert.equal(c.nexts, 2);
    const list = await t.get('/v1/episodes');
    assert.equal(list.status, 200);
    assert.equal(list.body.episodes.length, 1);
    const e = list.body.episodes[0];
    assert.equal(e.key, 'call-1');
    assert.equal(e.memory_count, 3);
    assert.equal(e.first_observed_at, at(1));
    assert.equal(e.last_observed_at, at(3));
    const one = await t.get(`/v1/episodes/${e.id}?limit=2`);
    assert.equal(one.status, 200);
    assert.deepEqual(
      one.body.memories.map((m: { properties: { content: string } }) => m.properties.content),
      ['Ana: first', 'Bo: second'],
    );
    assert.equal(one.body.memories[0].properties.episode, 'call-1');
    assert.equal(one.body.memories[0].properties.observed_at, at(1));
    assert.equal(one.body.memories[0].properties.date_observed, '2024-05-08');
    assert.equal(one.body.has_more, true);
    const next = await t.get(`/v1/episodes/${e.id}?limit=2&cursor=${one.body.next_cursor}`);
    assert.deepEqual(
      next.body.memories.map((m: { properties: { content: string } }) => m.properties.content),
      ['Ana: third'],
    );
    assert.equal(next.body.has_more, false);
    assert.equal(next.body.next_cursor, null);
  });

  it('a memory observed between two others is spliced into the chain by a later write', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', {
      memories: [
        { content: 'one', episode: 's', observed_at: at(1) },
        { content: 'three', episode: 's', observed_at: at(3) },
      ],
    });
    await t.post('/v1/memories', { content: 'four', episode: 's', observed_at: at(4) });
    await t.post('/v1/memories', { content: 'two', episode: 's', observed_at: at(2) });
    const c = await chain(t, 's');
    assert.deepEqual(c.path, ['one', 'two', 'three', 'four']);
    assert.equal(c.nexts, 3);
  });

  it('a staged episode is pending until its delta is applied, and revert takes it back out of the chain', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'committed first', episode: 'thread', observed_at: at(1) });
    const staged = await t.post('/v1/memories', {
      memories: [
        { content: 'staged second', episode: 'thread', observed_at: at(2) },
        { content: 'staged in another', episode: 'new-thread', observed_at: at(2) },
      ],
      apply: false,
    });
    assert.equal(staged.body.status, 'staged');
    assert.deepEqual((await chain(t, 'thread')).path, ['committed first']);
    const keys = (await t.get('/v1/episodes')).body.episodes.map((e: { key: string }) => e.key);
    assert.deepEqual(keys, ['thread']);
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})).status, 200);
    assert.deepEqual((await chain(t, 'thread')).path, ['committed first', 'staged second']);
    assert.equal((await t.get('/v1/episodes')).body.episodes.length, 2);
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/revert`, {})).status, 200);
    const after = await chain(t, 'thread');
    assert.deepEqual(after.path, ['committed first']);
    assert.equal(after.nexts, 0);
    const episodes = (await t.get('/v1/episodes')).body.episodes;
    assert.deepEqual(
      episodes.map((e: { key: string; memory_count: number }) => [e.key, e.memory_count]),
      [['thread', 1]],
    );
  });

  it('deleting a memory in the middle relinks its neighbours, and reverting the delete puts it back', async () => {
    const t = await newTenant(0);
    const w = await t.post('/v1/memories', {
      memories: ['a', 'b', 'c'].map((content, i) => ({ content, episode: 'm', observed_at: at(i) })),
    });
    const middle = w.body.memories[1].id;
    const del = await harness().service.deps.graph; // the graph, for the checks below
    assert.ok(del);
    const deleted = await fetch(`${harness().url}/v1/memories/${middle}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${t.key}` },
    });
    assert.equal(deleted.status, 200);
    const relinked = await chain(t, 'm');
    assert.deepEqual(relinked.path, ['a', 'c']);
    assert.equal(relinked.nexts, 1);
    const deltaId = ((await deleted.json()) as { delta_id: string }).delta_id;
    assert.equal((await t.post(`/v1/deltas/${deltaId}/revert`, {})).status, 200);
    const back = await chain(t, 'm');
    assert.deepEqual(back.path, ['a', 'b', 'c']);
    assert.equal(back.nexts, 2);
  });

  it('two staged halves of one new conversation both apply into one episode', async () => {
    const t = await newTenant(0);
    const first = await t.post('/v1/memories', {
      memories: [{ content: 'h1 a', episode: 'conv', observed_at: at(1) }],
      apply: false,
    });
    const second = await t.post('/v1/memories', {
      memories: [
        { content: 'h2 b', episode: 'conv', observed_at: at(2) },
        { content: 'h2 c', episode: 'conv', observed_at: at(3) },
      ],
      apply: false,
    });
    const a2 = await t.post(`/v1/deltas/${second.body.delta_id}/apply`, {});
    assert.equal(a2.status, 200, JSON.stringify(a2.body));
    const applied = await t.post(`/v1/deltas/${first.body.delta_id}/apply`, {});
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    const c = await chain(t, 'conv');
    assert.deepEqual(c.path, ['h1 a', 'h2 b', 'h2 c']);
    const episodes = (await t.get('/v1/episodes')).body.episodes;
    assert.equal(episodes.length, 1);
    assert.equal(episodes[0].memory_count, 3);
  });

  it('concurrent writes to one new episode make one episode and one chain', async () => {
    const t = await newTenant(0);
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.post('/v1/memories', { content: `turn ${i}`, episode: 'busy', observed_at: at(i) }),
      ),
    );
    assert.deepEqual(
      replies.map((r) => r.status),
      Array(8).fill(201),
    );
    const c = await chain(t, 'busy');
    assert.equal(c.members, 8);
    assert.deepEqual(
      c.path,
      Array.from({ length: 8 }, (_, i) => `turn ${i}`),
    );
    assert.equal(c.nexts, 7);
    assert.equal((await t.get('/v1/episodes')).body.episodes.length, 1);
  });

  it('a correction moves a memory to another episode and re-times it', async () => {
    const t = await newTenant(0);
    const w = await t.post('/v1/memories', {
      memories: ['x1', 'x2', 'x3'].map((content, i) => ({ content, episode: 'x', observed_at: at(i) })),
    });
    const moved = w.body.memories[1].id;
    const patch = await fetch(`${harness().url}/v1/memories/${moved}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ episode: 'y', observed_at: at(30) }),
    });
    assert.equal(patch.status, 200);
    assert.deepEqual((await chain(t, 'x')).path, ['x1', 'x3']);
    assert.deepEqual((await chain(t, 'y')).path, ['x2']);
    const read = await t.get(`/v1/memories/${moved}`);
    assert.equal(read.body.memory.properties.episode, 'y');
    assert.equal(read.body.memory.properties.observed_at, at(30));
  });

  for (const [name, item, field] of [
    ['an empty key', { content: 'c', episode: '' }, '/body/episode'],
    ['a 201-character key', { content: 'c', episode: 'k'.repeat(201) }, '/body/episode'],
    ['a key of spaces', { content: 'c', episode: '   ' }, '/body/episode'],
    ['a malformed observed_at', { content: 'c', episode: 'ok', observed_at: 'yesterday' }, '/body/observed_at'],
  ] as const) {
    it(`refuses ${name} with a 400 naming the field and writes nothing`, async () => {
      const t = await newTenant(0);
      const single = await t.post('/v1/memories', item);
      assert.equal(single.status, 400);
      assert.ok(
        JSON.stringify(single.body.error).includes(field),
        `expected ${field} in ${JSON.stringify(single.body.error)}`,
      );
      const batch = await t.post('/v1/memories', { memories: [{ content: 'fine', episode: 'ok' }, item] });
      assert.equal(batch.status, 400);
      assert.ok(JSON.stringify(batch.body.error).includes(field.replace('/body', '/body/memories/1')));
      assert.equal((await t.get('/v1/episodes')).body.episodes.length, 0);
      assert.equal((await t.post('/v1/memories/search', {})).body.count, 0);
    });
  }
});
