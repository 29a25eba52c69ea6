// known_at (transaction time, docs/facts.md): reads return only what the graph knew at a moment,
// reconstructed from the applied deltas, reverts honoured; on memory search, /v1/search, graph reads
// and context compile.
import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { del, fact, memory, patch } from '../governance/support.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { moment } from '../support/moments.js';

const q = (params: Record<string, string | undefined>): string =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&');

/** What each read shows of the project at known_at (and as_of), reduced to comparable names. */
async function reads(t: Tenant, word: string, knownAt?: string, asOf?: string) {
  const at = { ...(knownAt ? { known_at: knownAt } : {}), ...(asOf ? { as_of: asOf } : {}) };
  const ok = <T extends { status: number; body: Record<string, unknown> }>(r: T): T['body'] => {
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const recall = ok(await t.post('/v1/memories/search', { query: word, mode: 'lexical', ...at }));
  const search = ok(await t.post('/v1/search', { query: word, planes: ['memory'], mode: 'lexical', ...at }));
  const nodes = ok(await t.get(`/v1/graph/nodes?${q({ label: 'Memory', known_at: knownAt, as_of: asOf })}`));
  const edges = ok(await t.get(`/v1/graph/edges?${q({ known_at: knownAt, as_of: asOf })}`));
  const pack = ok(await t.post('/v1/context/compile', { slice: { planes: ['memory'] }, query: word, ...at })) as {
    pack?: { sections: { items: { text: string }[] }[] };
    sections?: { items: { text: string }[] }[];
  };
  const sections = pack.pack?.sections ?? pack.sections ?? [];
  const contents = (list: unknown) =>
    (list as { properties?: { content?: string }; content?: string }[]).map((n) =>
      String(n.properties?.content ?? n.content),
    );
  return {
    recall: contents(recall.nodes).sort(),
    search: (search.nodes as { name: string; properties: { content?: string } }[])
      .map((n) => String(n.properties.content))
      .sort(),
    nodes: contents(nodes.nodes).sort(),
    edges: (edges.edges as { type: string; source_name: string; target_name: string }[])
      .filter((e) => !['HAS_SUBJECT', 'HAS_OBJECT'].includes(e.type))
      .map((e) => `${e.source_name}-${e.type}->${e.target_name}`)
      .sort(),
    pack: sections.flatMap((s) => s.items.map((i) => i.text)).sort(),
  };
}

describe('known_at: reads as the graph knew them', function () {
  this.timeout(300_000);

  it('known_at before a delta is applied does not see what it adds; after the apply every read sees it', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { ...fact('Ada', 'works for', 'Acme'), apply: false });
    assert.equal(staged.status, 201, JSON.stringify(staged.body));
    const beforeApply = await moment();
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})).status, 200);
    const afterApply = await moment();
    const none = { recall: [], search: [], nodes: [], edges: [], pack: [] };
    assert.deepEqual(await reads(t, 'Acme', beforeApply), none);
    const seen = {
      recall: ['Ada works for Acme.'],
      search: ['Ada works for Acme.'],
      nodes: ['Ada works for Acme.'],
      edges: ['Ada-WORKS_FOR->Acme'],
      pack: ['Ada works for Acme.'],
    };
    assert.deepEqual(await reads(t, 'Acme', afterApply), seen);
    assert.deepEqual(await reads(t, 'Acme'), seen);
    // The neighbourhood of Ada: Acme is one hop away after the apply; before it, Ada is not known (404).
    const ada = (await t.get(`/v1/graph/nodes?label=Entity&property=name&value=Ada`)).body.nodes[0].id as string;
    assert.equal((await t.get(`/v1/graph/nodes/${ada}?known_at=${encodeURIComponent(beforeApply)}`)).status, 404);
    const around = await t.get(`/v1/graph/nodes/${ada}?known_at=${encodeURIComponent(afterApply)}`);
    assert.equal(around.status, 200, JSON.stringify(around.body));
    assert.ok(
      around.body.nodes.some((n: { name: string }) => n.name === 'Acme'),
      JSON.stringify(around.body),
    );
  });

  it('a reverted delta is still seen at a known_at between its apply and its revert, and disappears after the revert', async () => {
    const t = await newTenant(0);
    const m = await memory(t, fact('Bob', 'works for', 'Initech'));
    const bob = (await t.get(`/v1/graph/nodes?label=Entity&property=name&value=Bob`)).body.nodes[0].id as string;
    const between = await moment();
    assert.equal((await t.post(`/v1/deltas/${m.delta_id}/revert`, {})).status, 200);
    const afterRevert = await moment();
    const seen = {
      recall: ['Bob works for Initech.'],
      search: ['Bob works for Initech.'],
      nodes: ['Bob works for Initech.'],
      edges: ['Bob-WORKS_FOR->Initech'],
      pack: ['Bob works for Initech.'],
    };
    assert.deepEqual(await reads(t, 'Initech', between), seen);
    const none = { recall: [], search: [], nodes: [], edges: [], pack: [] };
    assert.deepEqual(await reads(t, 'Initech', afterRevert), none);
    assert.deepEqual(await reads(t, 'Initech'), none);
    // Bob's neighbourhood as the graph knew it between: Initech through the fact edge; now Bob is gone.
    const around = await t.get(`/v1/graph/nodes/${bob}?known_at=${encodeURIComponent(between)}`);
    assert.equal(around.status, 200, JSON.stringify(around.body));
    assert.equal(around.body.node.name, 'Bob');
    assert.deepEqual(
      around.body.edges
        .filter((e: { type: string }) => e.type === 'WORKS_FOR')
        .map((e: { source_name: string; target_name: string }) => `${e.source_name}->${e.target_name}`),
      ['Bob->Initech'],
    );
    assert.equal((await t.get(`/v1/graph/nodes/${bob}`)).status, 404);
  });

  it('what changed or was deleted after known_at is read as it was then; a deletion reverted after known_at is not known in between', async () => {
    const t = await newTenant(0);
    const m = await memory(t, fact('Cara', 'lives in', 'Oslo', { valid_from: '2020-01-01T00:00:00Z' }));
    const open = await moment();
    const closed = await t.post(`/v1/memories/${m.id}/close`, { valid_to: '2022-01-01T00:00:00Z' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const afterClose = await moment();
    const gone = await del(t, `/v1/memories/${m.id}`);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    const afterDelete = await moment();
    assert.equal((await t.post(`/v1/deltas/${gone.body.delta_id}/revert`, {})).status, 200);
    const afterRestore = await moment();
    const text = ['Cara lives in Oslo.'];
    // Known before the close: open-ended, so valid at known_at itself (2026) and in 2023.
    const atOpen = await reads(t, 'Oslo', open);
    assert.deepEqual([atOpen.recall, atOpen.nodes, atOpen.edges], [text, text, ['Cara-LIVES_IN->Oslo']]);
    assert.deepEqual((await reads(t, 'Oslo', open, '2023-06-01T00:00:00Z')).recall, text);
    // Known after the close: valid in 2021 only.
    assert.deepEqual((await reads(t, 'Oslo', afterClose)).recall, []);
    const in2021 = await reads(t, 'Oslo', afterClose, '2021-06-01T00:00:00Z');
    assert.deepEqual(
      [in2021.recall, in2021.search, in2021.nodes, in2021.edges],
      [text, text, text, ['Cara-LIVES_IN->Oslo']],
    );
    // Deleted, then restored by a revert: not known in between, known again after.
    const deleted = await reads(t, 'Oslo', afterDelete, '2021-06-01T00:00:00Z');
    assert.deepEqual(deleted, { recall: [], search: [], nodes: [], edges: [], pack: [] });
    assert.deepEqual((await reads(t, 'Oslo', afterRestore, '2021-06-01T00:00:00Z')).recall, text);
    // The memory as it was before the close carries no valid_to; read now it carries the close.
    const then = await t.get(`/v1/graph/nodes?label=Memory&known_at=${encodeURIComponent(open)}`);
    assert.equal(then.body.nodes[0].properties.valid_to, undefined, JSON.stringify(then.body));
    const now = await t.get('/v1/graph/nodes?label=Memory&as_of=2021-06-01T00:00:00Z');
    assert.ok(String(now.body.nodes[0].properties.valid_to).startsWith('2022-01-01'), JSON.stringify(now.body));
  });

  it('known_at that is no readable instant is a 400 naming the field on every read; with include_pending it is a 400; a future known_at reads now', async () => {
    const t = await newTenant(0);
    for (const [reply, field] of [
      [await t.get('/v1/graph/nodes?known_at=yesterday'), '/query/known_at'],
      [await t.get('/v1/graph/edges?known_at=2016-12-31T23:59:60Z'), '/query/known_at'],
      [await t.get('/v1/graph/nodes/x?known_at=soon'), '/query/known_at'],
      [await t.post('/v1/memories/search', { query: 'x', known_at: 'not a date' }), '/body/known_at'],
      [await t.post('/v1/search', { query: 'x', known_at: '2016-12-31T23:59:60Z' }), '/body/known_at'],
      [await t.post('/v1/context/compile', { slice: { planes: ['memory'] }, known_at: 'then' }), '/body/known_at'],
      [await t.get('/v1/graph/nodes?include_pending=true&known_at=2024-01-01T00:00:00Z'), '/query/include_pending'],
    ] as const) {
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.equal(reply.body.error.details.fields[0].field, field);
    }
    await memory(t, fact('Dan', 'works for', 'Hooli'));
    const future = await reads(t, 'Hooli', '2999-01-01T00:00:00Z');
    assert.deepEqual(future.recall, ['Dan works for Hooli.']);
    assert.deepEqual(future.edges, ['Dan-WORKS_FOR->Hooli']);
  });
  it('a context compile with known_at walks from its subject over relationships as they were then: closed or deleted since are walked, one created since is not', async () => {
    const t = await newTenant(0);
    const bravo = await memory(t, fact('Alpha', 'works with', 'Bravo'));
    const charlie = await memory(t, fact('Alpha', 'works with', 'Charlie'));
    await memory(t, fact('Charlie', 'works with', 'Echo'));
    const before = await moment();
    // Since: the Bravo fact closed in the past (its edge replaced by one valid until 2021), the
    // Charlie fact deleted (its edge with it), and a new fact to Delta.
    const closed = await t.post(`/v1/memories/${bravo.id}/close`, { valid_to: '2021-01-01T00:00:00Z' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const gone = await del(t, `/v1/memories/${charlie.id}`);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    await memory(t, fact('Alpha', 'works with', 'Delta'));
    const after = await moment();
    const compiled = async (hops: number, knownAt?: string) => {
      const reply = await t.post('/v1/context/compile', {
        slice: { subject: { name: 'Alpha' }, planes: ['entity', 'memory'], hops },
        ...(knownAt ? { known_at: knownAt } : {}),
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const items = (plane: string, reason: RegExp): string[] =>
        (reply.body.sections.find((s: { plane: string }) => s.plane === plane)?.items ?? [])
          .filter((i: { reason: string }) => reason.test(i.reason))
          .map((i: { name: string; text: string }) => (plane === 'memory' ? i.text : i.name))
          .sort();
      return { walked: items('entity', /subject/), linked: items('memory', /linked/) };
    };
    assert.deepEqual(await compiled(1, before), {
      walked: ['Alpha', 'Bravo', 'Charlie'],
      linked: ['Alpha works with Bravo.', 'Alpha works with Charlie.', 'Charlie works with Echo.'],
    });
    assert.deepEqual((await compiled(2, before)).walked, ['Alpha', 'Bravo', 'Charlie', 'Echo']);
    const later = { walked: ['Alpha', 'Delta'], linked: ['Alpha works with Delta.'] };
    assert.deepEqual(await compiled(1, after), later);
    assert.deepEqual(await compiled(1), later);
    // The graph neighbourhood agrees with the compile's walk at both moments.
    const alpha = (await t.get('/v1/graph/nodes?label=Entity&property=name&value=Alpha')).body.nodes[0].id as string;
    const around = async (knownAt: string) =>
      (
        (await t.get(`/v1/graph/nodes/${alpha}?depth=1&known_at=${encodeURIComponent(knownAt)}`)).body.nodes as {
          name: string;
          labels: string[];
        }[]
      )
        .filter((n) => n.labels.includes('Entity'))
        .map((n) => n.name)
        .sort();
    assert.deepEqual(await around(before), ['Bravo', 'Charlie']);
    assert.deepEqual(await around(after), ['Delta']);
  });

  it('an entity retyped since known_at shows its type then in graph reads, search and context compile', async () => {
    const t = await newTenant(0);
    await memory(t, fact('Ada', 'works for', 'Acme'));
    const id = async (name: string) =>
      (await t.get(`/v1/graph/nodes?label=Entity&property=name&value=${name}`)).body.nodes[0].id as string;
    const [ada, acme] = [await id('Ada'), await id('Acme')];
    const before = await moment();
    const retyped = await patch(t, `/v1/entities/${acme}`, { type: 'Organization' });
    assert.equal(retyped.status, 200, JSON.stringify(retyped.body));
    const after = await moment();
    const at = (knownAt?: string) => (knownAt ? `&known_at=${encodeURIComponent(knownAt)}` : '');
    const typeOf = async (knownAt?: string) => {
      const named = async (label: string) =>
        ((await t.get(`/v1/graph/nodes?label=${label}${at(knownAt)}`)).body.nodes as { name: string }[])
          .map((n) => n.name)
          .sort();
      const nodes = { Concept: await named('Concept'), Organization: await named('Organization') };
      const hood = (await t.get(`/v1/graph/nodes/${ada}?depth=1${at(knownAt)}`)).body;
      const edges = (await t.get(`/v1/graph/edges?node_id=${ada}&direction=out${at(knownAt)}`)).body.edges as {
        type: string;
        target_label: string;
      }[];
      const body = { query: 'Acme', planes: ['entity'], mode: 'lexical', ...(knownAt ? { known_at: knownAt } : {}) };
      const search = (await t.post('/v1/search', body)).body.nodes as { name: string; label: string }[];
      const filtered = (
        await t.post('/v1/search', { ...body, filters: { entity: { types: ['Organization'] } } })
      ).body.nodes.map((n: { name: string }) => n.name);
      const pack = (
        await t.post('/v1/context/compile', {
          slice: { subject: { id: ada }, planes: ['entity'], hops: 1 },
          ...(knownAt ? { known_at: knownAt } : {}),
        })
      ).body;
      return {
        nodes,
        neighbour: (hood.nodes.find((n: { name: string }) => n.name === 'Acme')?.labels as string[]).slice().sort(),
        edge: edges.filter((e) => e.type === 'WORKS_FOR').map((e) => e.target_label),
        search: search.filter((n) => n.name === 'Acme').map((n) => n.label),
        organizations: filtered,
        compiled: pack.sections[0].items
          .filter((i: { name: string }) => i.name === 'Acme')
          .map((i: { label: string }) => i.label),
      };
    };
    const then = await typeOf(before);
    assert.deepEqual(then, {
      nodes: { Concept: ['Acme', 'Ada'], Organization: [] },
      neighbour: ['Concept', 'Entity'],
      edge: ['Concept'],
      search: ['Concept'],
      organizations: [],
      compiled: ['Concept'],
    });
    const now = {
      nodes: { Concept: ['Ada'], Organization: ['Acme'] },
      neighbour: ['Entity', 'Organization'],
      edge: ['Organization'],
      search: ['Organization'],
      organizations: ['Acme'],
      compiled: ['Organization'],
    };
    assert.deepEqual(await typeOf(after), now);
    assert.deepEqual(await typeOf(), now);
  });

  it('what known_at puts back is found by meaning in semantic and hybrid modes: deleted since (embedded at the read) and closed since (its vector reused)', async () => {
    const t = await newTenant(0);
    const budget = await memory(t, { content: 'The finance committee approved the quarterly budget in March.' });
    const office = await memory(t, fact('Mira', 'lives in', 'Lisbon', { valid_from: '2020-01-01T00:00:00Z' }));
    await memory(t, { content: 'The cafeteria now serves soup on Fridays.' });
    await waitForEmbeddings(t.projectId);
    const before = await moment();
    assert.equal((await del(t, `/v1/memories/${budget.id}`)).status, 200);
    const closed = await t.post(`/v1/memories/${office.id}/close`, { valid_to: '2021-01-01T00:00:00Z' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    await waitForEmbeddings(t.projectId);
    type Found = { content: string; semantic: number | null; lexical: number | null; similarity: number | null };
    const recall = async (query: string, mode: string, knownAt?: string): Promise<Found[]> => {
      const reply = await t.post('/v1/memories/search', {
        query,
        mode,
        limit: 3,
        ...(knownAt ? { known_at: knownAt } : {}),
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(reply.body.degraded, [], 'the embedding engine answered');
      return (
        reply.body.nodes as {
          properties: { content: string };
          match: { semantic_rank: number | null; lexical_rank: number | null; similarity: number | null };
        }[]
      ).map((n) => ({
        content: n.properties.content,
        semantic: n.match.semantic_rank,
        lexical: n.match.lexical_rank,
        similarity: n.match.similarity,
      }));
    };
    const budgetQuestion = 'Did the finance committee approve the quarterly budget?';
    const [top] = await recall(budgetQuestion, 'semantic', before);
    assert.equal(top?.content, 'The finance committee approved the quarterly budget in March.', JSON.stringify(top));
    assert.equal(top.semantic, 1);
    assert.ok(top.similarity !== null && top.similarity > 0.75, JSON.stringify(top));
    // Hybrid: found by words and by meaning alike; now (deleted) by neither.
    const [both] = await recall(budgetQuestion, 'hybrid', before);
    assert.deepEqual([both?.content, both?.lexical, both?.semantic], [top.content, 1, 1]);
    assert.ok(!(await recall(budgetQuestion, 'semantic')).some((f) => f.content === top.content));
    // Closed since: its text is unchanged, so its vector in the graph serves the read then.
    const [lives] = await recall('Where does Mira live?', 'semantic', before);
    assert.equal(lives?.content, 'Mira lives in Lisbon.', JSON.stringify(lives));
    assert.equal(lives.semantic, 1);
    assert.ok(!(await recall('Where does Mira live?', 'semantic')).some((f) => f.content === 'Mira lives in Lisbon.'));
    // Unified search and the compile rank them by meaning too.
    const search = await t.post('/v1/search', {
      query: budgetQuestion,
      planes: ['memory'],
      mode: 'semantic',
      known_at: before,
    });
    assert.equal(search.body.nodes[0]?.properties.content, top.content, JSON.stringify(search.body));
    assert.equal(search.body.nodes[0].match.semantic_rank, 1);
    const pack = await t.post('/v1/context/compile', {
      slice: { planes: ['memory'] },
      query: budgetQuestion,
      known_at: before,
      explain: true,
    });
    assert.equal(pack.status, 200, JSON.stringify(pack.body));
    const item = (
      pack.body.candidates as { id: string; reason: string; match: { semantic_rank: number | null } }[]
    ).find((c) => c.id === budget.id);
    assert.ok(item && item.match.semantic_rank !== null && /close in meaning/.test(item.reason), JSON.stringify(item));
  });
});
