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
import { NO_LINKS } from '../../src/memories/recall.js';

type Hit = { memory: { id: string; content: string }; score: number };

describe('a project holding most of the index is searched by its words alone, with the same answer', function () {
  this.timeout(120_000);
  // Registered before the driver's own after hook, so it runs while the driver is open.
  after(async () => {
    await driver().executeQuery(
      'MATCH (n:Memory|Chunk|Entity|Document) WHERE n.project_id STARTS WITH "fulltext-" DETACH DELETE n',
    );
  });
  const driver = useRawDriver();
  const now = new Date().toISOString();
  // Words no other test writes, so the suite's other memories never share this test's hits.
  const nonce = crypto.randomUUID().replace(/-/g, '').slice(0, 10);
  const [HERON, QUOKKA] = [`heron${nonce}`, `quokka${nonce}`];

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
      ...NO_LINKS,
      episode: null,
      limit,
      candidates: limit,
      ...fullTextParams(lucene, projectId, bare),
      standing: null, // no request's standing check to carry (src/db/graph.ts)
      whole: false,
      around: false,
      per_node: 0,
    });
    return r.records.map((x) => x.toObject() as FullTextRow<Hit>);
  }

  /** A reader of the real statements that counts what it runs (fullTextHits reads once, or twice). */
  function counting() {
    const reader = {
      reads: 0,
      async run<R extends object>(name: string, params: Record<string, unknown> = {}): Promise<R[]> {
        reader.reads += 1;
        // $standing: no request's standing check to carry (src/db/graph.ts); $whole and $around: memories/search's
        // hits as ranked, without their edges.
        const sent = { standing: null, whole: false, around: false, per_node: 0, ...params };
        return (await driver().executeQuery(cypher(name), sent)).records.map((x) => x.toObject() as R);
      },
    };
    return reader;
  }

  const ids = (hits: Hit[]) => hits.map((h) => h.memory.id);
  const unscored = (hits: Record<string, unknown>[]) => hits.map(({ score: _score, ...rest }) => rest);
  let big = '';

  before(async () => {
    // More memories than the index holds already, so this project holds more than half of it.
    const r = await driver().executeQuery('MATCH (m:Memory) RETURN count(m) AS n');
    const others = Number(r.records[0]!.get('n'));
    big = `fulltext-big-${crypto.randomUUID()}`;
    const texts = Array.from({ length: others + 400 }, (_, i) =>
      i % 50 === 0 ? `${QUOKKA} ledger entry ${i}` : `${HERON} ledger entry ${i}`,
    );
    await fill(big, texts);
  });

  it('the dominant project is read without the tenant clause and answers what the tenant query answers', async () => {
    const [bare] = await statement(big, HERON, 20, true);
    assert.equal(bare?.bare, true, 'more than half of the index: the words alone');
    const [tenant] = await statement(big, HERON, 20, false);
    assert.equal(tenant?.bare, false);
    assert.equal(bare!.hits!.length, 20);
    assert.deepEqual(ids(bare!.hits!), ids(tenant!.hits!));
  });

  it("a window all of the project's is its answer even when the filters keep fewer than limit", async () => {
    // Three of the best hits forgotten: the window of 20 keeps 17, and it was the project's own 20 best.
    const [before] = await statement(big, HERON, 20, false);
    const forgotten = ids(before!.hits!).slice(0, 3);
    await driver().executeQuery(
      'UNWIND $ids AS id MATCH (m:Memory {id: id}) SET m.forget_after = datetime("2000-01-01T00:00:00Z")',
      { ids: forgotten },
    );
    const reader = counting();
    const lucene = luceneQuery(HERON, big)!;
    const hits = await fullTextHits<Hit>(reader, 'memories/search', {
      project_id: big,
      now,
      valid_at: now,
      kinds: null,
      ...NO_LINKS,
      episode: null,
      lucene,
      limit: 20,
      candidates: 20,
    });
    const [tenant] = await statement(big, HERON, 20, false);
    assert.equal(hits.length, 17);
    assert.deepEqual(ids(hits), ids(tenant!.hits!));
    assert.equal(reader.reads, 1, 'a whole window is not read again with the tenant clause');
    assert.ok(!ids(hits).some((id) => forgotten.includes(id)));
  });

  it('words the analyzer drops entirely ("the") answer what the tenant query answers, asked again', async () => {
    const reader = counting();
    const params = {
      project_id: big,
      now,
      valid_at: now,
      kinds: null,
      ...NO_LINKS,
      episode: null,
      limit: 10,
      candidates: 10,
    };
    const hits = await fullTextHits<Hit>(reader, 'memories/search', { ...params, lucene: luceneQuery('the', big)! });
    const [tenant] = await statement(big, 'the', 10, false);
    assert.equal(reader.reads, 2, 'an empty words-alone window is asked again with the tenant clause');
    assert.ok(hits.length > 0, 'the tenant query matches every memory of the project');
    assert.deepEqual(ids(hits), ids(tenant!.hits!));
  });

  it("when other projects' hits fill the words-alone window, the search asks again with the tenant clause", async () => {
    // Another project whose memories match the word better (shorter texts score higher) than the big one's few.
    const other = `fulltext-other-${crypto.randomUUID()}`;
    await fill(
      other,
      Array.from({ length: 30 }, () => QUOKKA),
    );
    const lucene = luceneQuery(QUOKKA, big)!;
    const params = {
      project_id: big,
      now,
      valid_at: now,
      kinds: null,
      ...NO_LINKS,
      episode: null,
      lucene,
      limit: 5,
      candidates: 5,
    };
    // The words alone see only the other project's five best: none of the big project's.
    const [alone] = await statement(big, QUOKKA, 5, true);
    assert.equal(alone?.bare, true);
    assert.equal(alone!.hits!.length, 0, JSON.stringify(alone));
    assert.equal(alone!.whole, false, "a full window of other projects' hits is not whole");
    const hits = await fullTextHits<Hit>(counting(), 'memories/search', params);
    const [tenant] = await statement(big, QUOKKA, 5, false);
    assert.equal(hits.length, 5);
    assert.deepEqual(ids(hits), ids(tenant!.hits!));
    assert.ok(hits.every((h) => h.memory.content.startsWith(`${QUOKKA} ledger`)));
  });

  it('every full-text statement of search and compile answers the dominant project as the tenant query does', async () => {
    // The chunk and entity indexes too: more chunks (of a committed document) and entities than they hold. The
    // index's own count also holds what earlier tests deleted until Lucene merges it away (the 1 MB upload's
    // thousand-odd chunks), so the chunks here are twice the graph's and 2,000 more: over half the index while
    // up to 2,000 more than the graph holds are deleted but unmerged.
    const count = async (label: string) =>
      Number((await driver().executeQuery(`MATCH (n:${label}) RETURN count(n) AS n`)).records[0]!.get('n'));
    const [chunks, entities] = [2 * (await count('Chunk')) + 2000, (await count('Entity')) + 400];
    await driver().executeQuery(
      `CREATE (d:Document:Knowledge {id: $project_id + '-doc', project_id: $project_id, title: 'Ledger',
                                     created_at: datetime()})
       WITH d
       UNWIND range(1, $chunks) AS i
       CREATE (d)-[:HAS_CHUNK]->(:Chunk:Knowledge {id: $project_id + '-c' + i, project_id: $project_id,
               tenant: $tenant, document_id: d.id, index: i, text: $word + ' ledger page ' + i, created_at: datetime()})`,
      { project_id: big, tenant: tenantToken(big), chunks, word: HERON },
    );
    await driver().executeQuery(
      `UNWIND range(1, $entities) AS i
       CREATE (:Entity:Knowledge:Person {id: $project_id + '-e' + i, project_id: $project_id, tenant: $tenant,
               name: $word + ' Ledger ' + i, created_at: datetime()})`,
      { project_id: big, tenant: tenantToken(big), entities, word: HERON },
    );
    const lucene = luceneQuery(HERON, big)!;
    const params = {
      project_id: big,
      now,
      valid_at: now,
      as_of: null,
      from: null,
      to: null,
      window_field: 'created_at',
      kinds: null,
      ...NO_LINKS,
      episode: null,
      document_ids: null,
      tags: null,
      types: null,
      shape_ids: null,
      limit: 15,
      candidates: 35,
      standing: null, // no request's standing check to carry (src/db/graph.ts)
      whole: false,
      around: false,
      per_node: 0,
    };
    const statements = [
      'memories/search',
      'search/chunks',
      'search/entities',
      'context/memories_search',
      'context/chunks_search',
      'context/entities_search',
    ];
    for (const name of statements) {
      const run = async (bare: boolean) =>
        (await driver().executeQuery(cypher(name), { ...params, ...fullTextParams(lucene, big, bare) })).records.map(
          (x) => x.toObject() as FullTextRow<Record<string, unknown>>,
        )[0];
      const [alone, tenant] = [await run(true), await run(false)];
      assert.equal(alone?.bare, true, `${name}: the words alone`);
      assert.equal(alone!.hits!.length, 15, name);
      // The same hits in the same order; a score differs by the tenant term's share of it.
      assert.deepEqual(unscored(alone!.hits!), unscored(tenant!.hits!), name);
    }
  });

  it('a project holding little of the index keeps the tenant clause, and one with no memory reads none', async () => {
    const t = await newTenant();
    const r = await call('POST', '/v1/memories', { content: `A ${HERON} ledger of my own.` }, { key: t.key });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const [small] = await statement(t.projectId, HERON, 10, true);
    assert.equal(small?.bare, false, 'a small share: the tenant query');
    assert.deepEqual(
      small!.hits!.map((h) => h.memory.content),
      [`A ${HERON} ledger of my own.`],
    );
    const search = await call('POST', '/v1/memories/search', { query: HERON, mode: 'lexical' }, { key: t.key });
    assert.equal(search.status, 200, JSON.stringify(search.body));
    assert.deepEqual(
      (search.body as { nodes: { properties?: { content?: string }; content?: string }[] }).nodes.map(
        (n) => n.properties?.content ?? n.content,
      ),
      [`A ${HERON} ledger of my own.`],
    );
    const empty = await newTenant();
    assert.deepEqual(await statement(empty.projectId, HERON, 10, true), []);
  });
});
