// A project that holds most of the memory index is searched by its words alone (no tenant clause, which
// costs a third of each query at 1M memories), and the answer is the one the tenant query gives: when the
// words-alone window held other projects' hits instead, the search asks again with the tenant clause
// (src/db/fullText.ts). Run on the real statement in the suite's Neo4j, whose index also holds every
// other test's memories.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { cypher } from '../../src/db/cypher.js';
import { fullTextHits, fullTextParams, type FullTextRow } from '../../src/db/fullText.js';
import { luceneQuery } from '../../src/db/tenant.js';
import { tenantToken } from '../../src/db/tenant.js';
import { call, newTenant } from '../support/api.js';
import { useRawDriver } from '../support/harness.js';

type Hit = { memory: { id: string; content: string }; score: number };

describe('a project holding most of the index is searched by its words alone, with the same answer', function () {
  this.timeout(120_000);
  // Registered before the driver's own after hook, so it runs while the driver is open.
  after(async () => {
    await driver().executeQuery('MATCH (m:Memory) WHERE m.project_id STARTS WITH "fulltext-" DETACH DELETE m');
  });
  const driver = useRawDriver();
  const now = new Date().toISOString();

  /** Memories of a project written straight into the graph (as committed memories are stored), n of them. */
  async function fill(projectId: string, texts: string[]): Promise<void> {
    await driver().executeQuery(
      `UNWIND range(0, size($texts) - 1) AS i
       CREATE (:Memory:Knowledge {id: $project_id + '-' + i, project_id: $project_id, tenant: $tenant,
                                  content: $texts[i], name: null, kind: 'fact', created_at: datetime()})`,
      { texts, project_id: projectId, tenant: tenantToken(projectId) },
    );
  }

  /** The statement's one row for a question, the words alone allowed or not. */
  async function statement(projectId: string, words: string, limit: number, bare: boolean) {
    const lucene = luceneQuery(words, projectId)!;
    const r = await driver().executeQuery(cypher('memories/search'), {
      project_id: projectId,
      now,
      valid_at: now,
      kinds: null,
      limit,
      candidates: limit,
      ...fullTextParams(lucene, projectId, bare),
    });
    return r.records.map((x) => x.toObject() as FullTextRow<Hit>);
  }

  const ids = (hits: Hit[]) => hits.map((h) => h.memory.id);
  let big = '';

  before(async () => {
    // More memories than the index holds already, so this project holds more than half of it.
    const r = await driver().executeQuery('MATCH (m:Memory) RETURN count(m) AS n');
    const others = Number(r.records[0]!.get('n'));
    big = `fulltext-big-${crypto.randomUUID()}`;
    const texts = Array.from({ length: others + 400 }, (_, i) =>
      i % 50 === 0 ? `quokka ledger entry ${i}` : `heron ledger entry ${i}`,
    );
    await fill(big, texts);
  });

  it('the dominant project is read without the tenant clause and answers what the tenant query answers', async () => {
    const [bare] = await statement(big, 'heron ledger', 20, true);
    assert.equal(bare?.bare, true, 'more than half of the index: the words alone');
    const [tenant] = await statement(big, 'heron ledger', 20, false);
    assert.equal(tenant?.bare, false);
    assert.equal(bare!.hits!.length, 20);
    assert.deepEqual(ids(bare!.hits!), ids(tenant!.hits!));
  });

  it("when other projects' hits fill the words-alone window, the search asks again with the tenant clause", async () => {
    // Another project whose memories match the word better (shorter texts score higher) than the big one's few.
    const other = `fulltext-other-${crypto.randomUUID()}`;
    await fill(
      other,
      Array.from({ length: 30 }, () => 'quokka'),
    );
    const read = async (p: Record<string, unknown>) =>
      (await driver().executeQuery(cypher('memories/search'), p)).records.map((x) => x.toObject() as FullTextRow<Hit>);
    const lucene = luceneQuery('quokka', big)!;
    const params = { project_id: big, now, valid_at: now, kinds: null, lucene, limit: 5, candidates: 5 };
    // The words alone see only the other project's five best: none of the big project's.
    const [alone] = await statement(big, 'quokka', 5, true);
    assert.equal(alone?.bare, true);
    assert.equal(alone!.hits!.length, 0, JSON.stringify(alone));
    const hits = await fullTextHits<Hit>(read, params, big);
    const [tenant] = await statement(big, 'quokka', 5, false);
    assert.equal(hits.length, 5);
    assert.deepEqual(ids(hits), ids(tenant!.hits!));
    assert.ok(hits.every((h) => h.memory.content.startsWith('quokka ledger')));
  });

  it('a project holding little of the index keeps the tenant clause, and one with no memory reads none', async () => {
    const t = await newTenant();
    const r = await call('POST', '/v1/memories', { content: 'A heron ledger of my own.' }, { key: t.key });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const [small] = await statement(t.projectId, 'heron ledger', 10, true);
    assert.equal(small?.bare, false, 'a small share: the tenant query');
    assert.deepEqual(
      small!.hits!.map((h) => h.memory.content),
      ['A heron ledger of my own.'],
    );
    const search = await call(
      'POST',
      '/v1/memories/search',
      { query: 'heron ledger', mode: 'lexical' },
      { key: t.key },
    );
    assert.equal(search.status, 200, JSON.stringify(search.body));
    assert.deepEqual(
      (search.body as { nodes: { properties?: { content?: string }; content?: string }[] }).nodes.map(
        (n) => n.properties?.content ?? n.content,
      ),
      ['A heron ledger of my own.'],
    );
    const empty = await newTenant();
    assert.deepEqual(await statement(empty.projectId, 'heron ledger', 10, true), []);
  });
});
