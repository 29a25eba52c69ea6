// A project holding few nodes of a plane is searched by meaning exactly: each of its vectors is compared with the
// question, so its neighbours are the true ones, in the same order for the same graph, whatever other projects
// write into the shared, approximate vector index (docs/recall.md, "Exact for small projects"). Past
// EXACT_UP_TO the index answers. Run on the real statements, vectors from the real engine.
import assert from 'node:assert/strict';
import { EXACT_UP_TO } from '../../src/search/meaning.js';
import { newTenant, type Tenant } from '../support/api.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { harness, useRawDriver } from '../support/harness.js';
import { remember, seedAdaGraph } from '../context/fixtures.js';
import { NO_LINKS } from '../../src/memories/recall.js';

const TOPICS = [
  'the payroll run moved to the 25th',
  'the staging database was upgraded',
  'Ada Lovelace wrote the first program',
  'the office plants need water on Fridays',
  'the invoice template gained a VAT line',
  'the build cache lives under .cache',
  'Babbage designed the Analytical Engine',
  'the team lunch is on Thursdays',
  'the on-call rota changes every Monday',
  'the logo was redrawn in blue',
];

interface Hit {
  id: string;
  similarity: number;
}

interface NearRow {
  found: number;
  floor: number;
  hits: Hit[];
}

const graph = () => harness().service.deps.graph;
const embedder = () => {
  const e = harness().service.deps.runtime.embeddings?.embedder;
  if (!e) throw new Error('the test harness runs the embedded engine (EMBEDDINGS unset)');
  return e;
};

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i]!;
    na += x * x;
    nb += b[i]! * b[i]!;
  });
  return dot / Math.sqrt(na * nb);
}

describe('meaning in a small project', function () {
  this.timeout(240_000);
  const driver = useRawDriver();
  let mine: Tenant;
  let question: number[];
  /** The project's vectors by plane label, id -> vector. */
  const vectors = new Map<string, Map<string, number[]>>();

  before(async () => {
    mine = await newTenant(0);
    const other = await newTenant(0);
    await remember(
      mine,
      Array.from({ length: 30 }, (_, i) => ({ content: `Note ${i + 1}: ${TOPICS[i % TOPICS.length]!}, week ${i}.` })),
    );
    await remember(
      other,
      Array.from({ length: 15 }, (_, i) => ({ content: `Other ${i + 1}: ${TOPICS[(i + 3) % TOPICS.length]!}.` })),
    );
    await seedAdaGraph(mine);
    const doc = await mine.post('/v1/documents', {
      title: 'Engines',
      content: 'The Analytical Engine was designed by Charles Babbage. Ada Lovelace wrote its first program.',
    });
    assert.equal(doc.status, 201, JSON.stringify(doc.body));
    await waitForEmbeddings(mine.projectId);
    await waitForEmbeddings(other.projectId);
    const read = await driver().executeQuery(
      'MATCH (n:Knowledge {project_id: $p}) WHERE n.embedding IS NOT NULL AND NOT n:Pending ' +
        "RETURN n.id AS id, [l IN labels(n) WHERE l IN ['Memory', 'Chunk', 'Entity']][0] AS plane, n.embedding AS v",
      { p: mine.projectId },
    );
    for (const r of read.records) {
      const plane = String(r.get('plane'));
      if (!vectors.has(plane)) vectors.set(plane, new Map());
      vectors.get(plane)!.set(String(r.get('id')), (r.get('v') as number[]).map(Number));
    }
    const [asked] = await embedder().embedQueries(['who wrote the first program for the engine?']);
    assert.ok(asked);
    question = asked;
  });

  /** The plane's ids nearest the question by a cosine computed here, nearest first, then by id. */
  const truth = (plane: string): Hit[] =>
    [...vectors.get(plane)!.entries()]
      .map(([id, v]) => ({ id, similarity: cosine(v, question) }))
      .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));

  const near = async (statement: string, params: Record<string, unknown>): Promise<NearRow> => {
    const row = await graph().read((tx) =>
      tx.one<NearRow>(statement, {
        project_id: mine.projectId,
        vector: question,
        model: embedder().model.id,
        min_similarity: -1,
        exact_up_to: EXACT_UP_TO,
        ...params,
      }),
    );
    assert.ok(row);
    return row;
  };
  const memories = (params: Record<string, unknown>) => {
    const now = new Date().toISOString();
    return near('memories/vector', { now, valid_at: now, kinds: null, ...NO_LINKS, episode: null, ...params });
  };
  const ordered = (hits: Hit[]) => hits.slice().sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
  /** Exact scores are the cosine to float precision; the index's are of its quantized vectors, so only close. */
  const sameScores = (hits: Hit[], plane: string, within = 1e-4) => {
    const mineOf = vectors.get(plane)!;
    for (const h of hits) {
      assert.ok(mineOf.has(h.id), `${h.id} is one of the project's ${plane} nodes`);
      const off = Math.abs(h.similarity - cosine(mineOf.get(h.id)!, question));
      assert.ok(off < within, `${h.id}'s cosine, off by ${off}`);
    }
  };

  it('the nearest memories of a small project are the true nearest, each of its vectors compared', async () => {
    assert.equal(vectors.get('Memory')?.size, 30);
    const all = await memories({ k: 40 });
    assert.equal(all.found, 30, 'every memory of the project compared, no other project read');
    assert.deepEqual(
      ordered(all.hits).map((h) => h.id),
      truth('Memory').map((h) => h.id),
    );
    sameScores(all.hits, 'Memory');
    const top = await memories({ k: 10 });
    assert.equal(top.found, 10);
    assert.deepEqual(
      ordered(top.hits).map((h) => h.id),
      truth('Memory')
        .slice(0, 10)
        .map((h) => h.id),
    );
    assert.ok(Math.abs(top.floor - truth('Memory')[9]!.similarity) < 1e-4, 'the farthest of the ten');
  });

  it('past exact_up_to the vector index answers, its neighbours over every project filtered to this one', async () => {
    const exact = await memories({ k: 40, exact_up_to: 30 });
    assert.equal(exact.found, 30);
    const index = await memories({ k: 40, exact_up_to: 29 });
    // The index holds this project's 30 vectors, the other project's 15 and every earlier test's.
    assert.equal(index.found, 40);
    assert.ok(index.hits.length > 0);
    sameScores(index.hits, 'Memory', 0.01);
  });

  it('chunks and entities of a small project are compared exactly too, and through the index past it', async () => {
    const planes: [string, string, Record<string, unknown>][] = [
      ['Chunk', 'search/chunks_vector', { tags: null, document_ids: null }],
      ['Entity', 'search/entities_vector', { types: null }],
    ];
    for (const [plane, statement, params] of planes) {
      const expected = truth(plane);
      assert.ok(expected.length > 0, `the project has ${plane} vectors`);
      const exact = await near(statement, { ...params, k: 40 });
      assert.equal(exact.found, expected.length, plane);
      assert.deepEqual(
        ordered(exact.hits).map((h) => h.id),
        expected.map((h) => h.id),
        plane,
      );
      sameScores(exact.hits, plane);
      const index = await near(statement, { ...params, k: 40, exact_up_to: 0 });
      sameScores(index.hits, plane, 0.01);
    }
  });

  it("the preflight's near duplicates of a small project are found by comparing each of its memories", async () => {
    const [id, vector] = [...vectors.get('Memory')!.entries()][4]!;
    const run = (exactUpTo: number) =>
      graph().read((tx) =>
        tx.run<{ pending_id: string; committed_id: string; similarity: number }>('preflight/meaning/near_duplicates', {
          pending: [{ id: 'pending-1', vector }],
          k: 5,
          exact_up_to: exactUpTo,
          model: embedder().model.id,
          delta_id: 'no-delta',
          project_id: mine.projectId,
          threshold: 0.99,
        }),
      );
    const exact = await run(EXACT_UP_TO);
    assert.deepEqual(
      exact.map((r) => [r.pending_id, r.committed_id]),
      [['pending-1', id]],
    );
    assert.ok(exact[0]!.similarity > 0.999);
    for (const r of await run(0)) assert.equal(r.committed_id, id, 'the index finds no other of its memories');
  });
});
