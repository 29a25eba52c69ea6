// A lexical search whose question holds no identifier answers in the words' own rank order, so it reads back only
// `limit` hits (from the same window of candidates): its answer must be the first `limit` of the whole ranking,
// filters included (src/memories/recall.ts, issue 27).
import assert from 'node:assert/strict';
import { fullTextHits } from '../../src/db/fullText.js';
import { luceneQuery } from '../../src/db/tenant.js';
import { lastRuns } from '../../src/db/warming.js';
import { timesRun } from '../../src/db/cypher.js';
import { candidatesFor } from '../../src/memories/recall.js';
import { newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { NO_LINKS } from '../../src/memories/recall.js';

/** The ids of the whole words ranking (every candidate of the window that passes the filters), best first. */
async function wholeRanking(t: Tenant, query: string, limit: number, kinds: string[] | null): Promise<string[]> {
  const now = new Date().toISOString();
  const more = candidatesFor(limit);
  const rows = await harness().service.deps.graph.readEach((each) =>
    fullTextHits<{ memory: { id: string } | null }>(each, 'memories/search', {
      project_id: t.projectId,
      now,
      valid_at: now,
      kinds,
      ...NO_LINKS,
      episode: null,
      lucene: luceneQuery(query, t.projectId)!,
      limit: more,
      candidates: more,
      whole: false,
      around: false,
      per_node: 0,
    }),
  );
  return rows.flatMap((r) => (r.memory ? [r.memory.id] : []));
}

const searchedLimit = (): unknown => lastRuns.warmings('memories/search')[0]?.params.limit;

describe('lexical recall in rank order', function () {
  this.timeout(120_000);

  it('reads back only limit hits and answers the first limit of the whole ranking, with filters', async () => {
    const t = await newTenant(0);
    // The word repeated a varying number of times gives varying scores; kinds alternate, and some are forgotten.
    const memories = Array.from({ length: 40 }, (_, i) => ({
      content: `${'kestrel '.repeat((i % 7) + 1)}note ${i} about the hide by the river.`,
      kind: i % 3 === 0 ? 'lesson' : 'fact',
      ...(i % 5 === 0 ? { forget_after: new Date(Date.now() + 1500).toISOString() } : {}),
    }));
    assert.equal((await t.post('/v1/memories', { memories })).status, 201);
    await new Promise((r) => setTimeout(r, 1700)); // every fifth memory is past forget_after
    for (const [limit, kinds] of [
      [5, null],
      [12, null],
      [4, ['lesson']],
    ] as const) {
      const reply = await t.post('/v1/memories/search', {
        query: 'kestrel river',
        limit,
        mode: 'lexical',
        ...(kinds ? { kinds } : {}),
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(searchedLimit(), limit, 'the statement is asked for limit hits');
      const whole = await wholeRanking(t, 'kestrel river', limit, kinds ? [...kinds] : null);
      assert.ok(whole.length > limit, `${whole.length} candidates pass the filters`);
      assert.deepEqual(
        reply.body.nodes.map((n: { id: string }) => n.id),
        whole.slice(0, limit),
        `limit ${limit}, kinds ${String(kinds)}`,
      );
      assert.deepEqual(
        reply.body.nodes.map((n: { match: { lexical_rank: number } }) => n.match.lexical_rank),
        Array.from({ length: limit }, (_, i) => i + 1),
      );
    }
  });

  it('is one statement: its hits come whole, with the edges memories/answered would give them', async () => {
    const t = await newTenant(0);
    const made = await t.post('/v1/memories', {
      content: 'The kestrel survey prefers dawn counts at the river hide.',
      kind: 'preference',
      subject: 'River hide',
      forget_after: new Date(Date.now() + 86_400_000).toISOString(),
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await t.post('/v1/memories', { content: 'A second kestrel note.', kind: 'fact' });
    const answered = timesRun('memories/answered');
    const reply = await t.post('/v1/memories/search', { query: 'kestrel survey', limit: 5, mode: 'lexical' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(timesRun('memories/answered'), answered, 'no memories/answered after the search');
    // The same memories, properties and edges as the search that reads them afterwards (hybrid, whole window).
    const hybrid = await t.post('/v1/memories/search', { query: 'kestrel survey', limit: 5, mode: 'hybrid' });
    const byId = (nodes: { id: string }[]) => [...nodes].sort((a, b) => a.id.localeCompare(b.id));
    const strip = (n: Record<string, unknown>) => ({ ...n, match: undefined });
    assert.deepEqual(byId(reply.body.nodes).map(strip), byId(hybrid.body.nodes).map(strip));
    assert.deepEqual(reply.body.edges, hybrid.body.edges);
    assert.equal(reply.body.edges.length, 1);
    // Read whole: what only the whole memory holds (its subject, forget_after, times).
    const first = reply.body.nodes.find((n: { id: string }) => n.id === made.body.id);
    assert.equal(first.properties.subject, 'River hide');
    assert.equal(typeof first.properties.forget_after, 'string');
    assert.match(first.created_at, /^\d{4}-\d\d-\d\dT/);
  });

  it('a question with an identifier still reads the whole window, so an exact match deep in it comes first', async () => {
    const t = await newTenant(0);
    const memories = Array.from({ length: 30 }, (_, i) => ({
      content: `${'kestrel '.repeat(8)}survey ${i}.`,
      kind: 'fact',
    }));
    memories.push({ content: 'A lone kestrel seen at hide KX-42.', kind: 'fact' });
    assert.equal((await t.post('/v1/memories', { memories })).status, 201);
    const reply = await t.post('/v1/memories/search', { query: 'kestrel KX-42', limit: 3, mode: 'lexical' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(searchedLimit(), candidatesFor(3));
    assert.equal(reply.body.nodes[0].properties.content, 'A lone kestrel seen at hide KX-42.');
    assert.deepEqual(reply.body.nodes[0].match.exact, ['kx-42']);
  });

  it('hybrid recall still ranks the whole window of word hits', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', {
      memories: Array.from({ length: 8 }, (_, i) => ({ content: `kestrel note ${i}`, kind: 'fact' })),
    });
    const reply = await t.post('/v1/memories/search', { query: 'kestrel', limit: 2, mode: 'hybrid' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(searchedLimit(), candidatesFor(2));
  });
});
