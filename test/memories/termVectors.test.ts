// What a process holds of small projects' term vectors (src/memories/termVectors.ts), against the real engines: the
// least recently used project is dropped first when the count of projects or of vector components would pass its
// bound, a project larger than the bound of components is never held, and forget() drops one project. Which reads go
// to Neo4j is observed on the real reader (memories/term_vectors runs only for a project not held).
import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { waitForTermVectors } from '../support/mentions.js';
import { TermVectors } from '../../src/memories/termVectors.js';
import type { Reader } from '../../src/db/graph.js';

/** A project whose memories' terms all have a vector, and its held terms' component count under the model. */
async function projectWithTerms(lines: string[]): Promise<string> {
  const t = await newTenant(0);
  for (const content of lines) {
    const r = await t.post('/v1/memories', { content });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  await waitForTermVectors(t.projectId);
  return t.projectId;
}

describe('the term vectors a process holds (bounded, least recently used dropped first)', function () {
  this.timeout(300_000);
  let projects: string[] = [];
  let model = '';

  before(async () => {
    const embedder = harness().service.deps.embedder;
    if (!embedder) throw new Error('the suite runs with the embedded engine');
    model = embedder.model.id;
    projects = [
      await projectWithTerms(['Ana: I play the violin at the recital.']),
      await projectWithTerms(['Ben: My cello needs new strings.']),
      await projectWithTerms(['Cleo: We hiked to the lighthouse.']),
    ];
  });

  /** Asks `held` for each project in turn, in one reader, and answers the projects whose terms it read from Neo4j. */
  async function reads(held: TermVectors, asked: string[]): Promise<string[]> {
    const loaded: string[] = [];
    await harness().service.deps.graph.readEach(async (tx) => {
      const observed: Reader = {
        ...tx,
        run: tx.run.bind(tx),
        runAll: tx.runAll.bind(tx),
        runText: tx.runText.bind(tx),
        one: (name, params) => {
          if (name === 'memories/term_vectors') loaded.push(String(params?.project_id));
          return tx.one(name, params);
        },
      } as Reader;
      for (const project of asked) {
        const terms = await held.held(observed, project, model, false);
        assert.notEqual(terms, 'large');
      }
    });
    return loaded;
  }

  it('at the bound of projects, the least recently used is dropped for the next', async () => {
    const [a, b, c] = projects as [string, string, string];
    const held = new TermVectors({ numbers: 4_000_000, projects: 2 });
    assert.deepEqual(await reads(held, [a, b]), [a, b], 'read once each');
    assert.deepEqual(await reads(held, [a, b]), [], 'held');
    // a used last: b is the least recently used when c comes.
    assert.deepEqual(await reads(held, [a, c]), [c]);
    assert.deepEqual(await reads(held, [a, c]), [], 'a and c held');
    assert.deepEqual(await reads(held, [b]), [b], 'b was dropped');
  });

  it('at the bound of vector components, the oldest are dropped; a project larger than the bound is never held', async () => {
    const [a, b] = projects as [string, string];
    const sizing = new TermVectors();
    await reads(sizing, [a, b]);
    const components = async (project: string) => {
      const terms = await sizing.held({} as Reader, project, model, false); // held: no read
      assert.notEqual(terms, 'large');
      return terms === 'large' ? 0 : terms.terms.reduce((n, t) => n + t.vector.length, 0);
    };
    const [sizeA, sizeB] = [await components(a), await components(b)];
    assert.ok(sizeA > 0 && sizeB > 0, 'each project has terms with vectors');
    // Room for the larger of the two alone.
    const held = new TermVectors({ numbers: Math.max(sizeA, sizeB), projects: 100 });
    assert.deepEqual(await reads(held, [a, b, a, b]), [a, b, a, b], 'each drops the other');
    const tiny = new TermVectors({ numbers: Math.min(sizeA, sizeB) - 1, projects: 100 });
    assert.deepEqual(await reads(tiny, [a, a, b, b]), [a, a, b, b], 'too large to hold: read every time');
  });

  it('forget drops one project, whatever else is held', async () => {
    const [a, b] = projects as [string, string];
    const held = new TermVectors();
    await reads(held, [a, b]);
    held.forget(a);
    assert.deepEqual(await reads(held, [a, b]), [a]);
  });
});
