import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { packBytes, packIds, remember, sectionIds, seedAdaGraph } from './fixtures.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('context compile', function () {
  this.timeout(240_000); // the shared 2-core machine runs many engines at once
  it('answers a citable pack within budget, byte-identical on re-compile apart from request_id', async () => {
    const t = await newTenant(0);
    const ids = await seedAdaGraph(t);
    await remember(t, [
      {
        content: 'Ada Lovelace decided to publish the notes on the engine.',
        kind: 'decision',
        subject: { id: ids.ada },
      },
      { content: 'The engine notes include the first published algorithm.', kind: 'fact' },
      { content: 'Weather was rainy that year.', kind: 'observation' },
    ]);
    await t.post('/v1/documents', {
      content: 'The Analytical Engine notes were translated by Ada Lovelace. The engine used punched cards.',
      title: 'Notes',
    });
    const body = { slice: { subject: { id: ids.ada }, budget: { max_tokens: 600 } }, query: 'engine notes' };
    // The same graph: vectors are written after commit, so the compile waits for them first.
    await waitForEmbeddings(t.projectId);
    const first = await t.post('/v1/context/compile', body);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const p = first.body;
    assert.match(p.pack_id, /^ctx_[0-9a-f]{32}$/);
    assert.equal(p.slice, null);
    assert.equal(p.as_of, null);
    assert.equal(p.query, 'engine notes');
    assert.equal(p.budget.max_tokens, 600);
    assert.equal(p.budget.tokenizer, 'cl100k_base');
    assert.ok(p.budget.used_tokens <= 600 && p.budget.used_tokens > 0);
    assert.deepEqual(
      p.sections.map((s: { plane: string }) => s.plane),
      ['memory', 'document', 'entity'],
    );
    for (const section of p.sections) {
      section.items.forEach((item: { ref: string; tokens: number }, i: number) => {
        assert.equal(item.ref, `${section.plane[0]}${i + 1}`);
        assert.ok(p.markdown.includes(`[${item.ref}]`), `markdown cites ${item.ref}`);
        assert.ok(item.tokens > 0);
      });
    }
    assert.equal(p.text, p.markdown);
    assert.ok(sectionIds(p, 'memory').length >= 2);
    assert.equal(sectionIds(p, 'document').length, 1);
    assert.ok(sectionIds(p, 'entity').includes(ids.ada));
    // Ada created the engine: that relationship is among the chosen entities.
    assert.ok(
      p.edges.some(
        (e: { source: string; type: string; target: string }) =>
          e.source === ids.ada && e.type === 'CREATED' && e.target === ids.engine,
      ),
    );
    for (const h of Object.values(p.hashes)) assert.match(String(h), /^[0-9a-f]{64}$/);
    const again = await t.post('/v1/context/compile', body);
    assert.notEqual(again.body.request_id, first.body.request_id);
    assert.equal(packBytes(again.body), packBytes(first.body));
  });

  it('a staged memory is absent until its delta is applied, which changes the denotative hash', async () => {
    const t = await newTenant(0);
    await remember(t, [{ content: 'Solar panels were installed on the roof.', kind: 'fact' }]);
    const staged = await remember(
      t,
      [{ content: 'Solar output doubled after cleaning the panels.', kind: 'lesson' }],
      false,
    );
    const body = { slice: { planes: ['memory'] }, query: 'solar panels' };
    const before = await t.post('/v1/context/compile', body);
    assert.equal(before.status, 200);
    assert.ok(!packIds(before.body).includes(staged.ids[0]));
    assert.equal(packIds(before.body).length, 1);
    assert.equal((await t.post(`/v1/deltas/${staged.deltaId}/apply`, {})).status, 200);
    const after = await t.post('/v1/context/compile', body);
    assert.ok(packIds(after.body).includes(staged.ids[0]));
    assert.notEqual(after.body.hashes.denotative, before.body.hashes.denotative);
    assert.notEqual(after.body.pack_id, before.body.pack_id);
    assert.equal(after.body.hashes.operational, before.body.hashes.operational);
  });

  it('leaves out memories past forget_after', async () => {
    const t = await newTenant(0);
    const { ids } = await remember(t, [
      { content: 'Parking lot A is closed.', forget_after: '2001-01-01T00:00:00Z' },
      { content: 'Parking lot B is closed until noon.', forget_after: '2200-01-01T00:00:00Z' },
      { content: 'Parking lot C is open.' },
    ]);
    for (const query of ['parking lot', '']) {
      const reply = await t.post('/v1/context/compile', { slice: { planes: ['memory'] }, query, explain: true });
      assert.deepEqual(new Set(packIds(reply.body)), new Set([ids[1], ids[2]]));
      assert.ok(
        !reply.body.candidates.some((c: { id: string }) => c.id === ids[0]),
        'a forgotten memory is not even a candidate',
      );
    }
  });

  it('keeps only items inside the time window, fixed or rolling, and only items created by as_of', async () => {
    const t = await newTenant(0);
    const old = await remember(t, [{ content: 'Migration step one finished.' }]);
    await sleep(30);
    const between = new Date().toISOString();
    await sleep(30);
    const recent = await remember(t, [{ content: 'Migration step two finished.' }]);
    const compile = async (slice: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const reply = await t.post('/v1/context/compile', {
        slice: { planes: ['memory'], ...slice },
        query: 'migration step',
        ...extra,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return packIds(reply.body);
    };
    assert.deepEqual(await compile({ time_window: { from: between } }), recent.ids);
    assert.deepEqual(await compile({ time_window: { field: 'created_at', to: between } }), old.ids);
    assert.equal((await compile({ time_window: { last: 'PT1H' } })).length, 2);
    assert.deepEqual(await compile({}, { as_of: between }), old.ids);
    assert.deepEqual(await compile({ time_window: { last: 'P1D' } }, { as_of: '2001-01-01T00:00:00Z' }), []);
    // date_observed is the day the memory was stored: a window from tomorrow holds none of them.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    assert.deepEqual(await compile({ time_window: { field: 'date_observed', from: tomorrow } }), []);
    // No query: the most recent items inside the window.
    const recentOnly = await t.post('/v1/context/compile', {
      slice: { planes: ['memory'], time_window: { from: between } },
    });
    assert.deepEqual(packIds(recentOnly.body), recent.ids);
    assert.match(recentOnly.body.sections[0].items[0].reason, /^recent/);
  });

  it('walks the subject neighbourhood 1 or 2 hops over the allowed relationship types, with linked memories', async () => {
    const t = await newTenant(0);
    const ids = await seedAdaGraph(t);
    const { ids: mem } = await remember(t, [
      { content: 'Babbage lost funding for the engine.', subject: { id: ids.babbage } },
      { content: 'Ada wrote notes on Bernoulli numbers.', subject: { id: ids.ada } },
    ]);
    const entities = async (slice: Record<string, unknown>) => {
      const reply = await t.post('/v1/context/compile', { slice: { subject: { id: ids.ada }, ...slice } });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body;
    };
    const set = (xs: string[]) => new Set(xs);
    const one = await entities({
      planes: ['entity', 'memory'],
      hops: 1,
      filters: { entity: { types: ['Person', 'Organization', 'Product', 'Place'] } },
    });
    // Without a query the most recent entities are candidates too; the neighbourhood reasons say which came from the walk.
    const walked = (pack: { sections: { plane: string; items: { id: string; reason: string }[] }[] }) =>
      set(
        pack.sections
          .find((s) => s.plane === 'entity')!
          .items.filter((i) => /subject/.test(i.reason))
          .map((i) => i.id),
      );
    assert.deepEqual(walked(one), set([ids.ada!, ids.foundation!, ids.engine!]));
    const two = await entities({ planes: ['entity', 'memory'], hops: 2 });
    assert.deepEqual(walked(two), set([ids.ada!, ids.foundation!, ids.engine!, ids.place!, ids.babbage!]));
    const zero = await entities({ planes: ['entity'], hops: 0 });
    assert.deepEqual(walked(zero), set([ids.ada!]));
    const worksFor = await entities({ planes: ['entity'], hops: 2, relationship_types: ['WORKS_FOR', 'LOCATED_IN'] });
    assert.deepEqual(walked(worksFor), set([ids.ada!, ids.foundation!, ids.place!]));
    // Memories linked to an entity 2 hops away come in with hops 2 only.
    const linked = (pack: { sections: { plane: string; items: { id: string; reason: string }[] }[] }) =>
      pack.sections
        .find((s) => s.plane === 'memory')!
        .items.filter((i) => /linked/.test(i.reason))
        .map((i) => i.id);
    assert.deepEqual(linked(one), [mem[1]]);
    assert.deepEqual(set(linked(two)), set(mem));
    // Subject by name and type resolves to the same entity.
    const byName = await t.post('/v1/context/compile', {
      slice: { planes: ['entity'], hops: 0, subject: { name: 'ada  LOVELACE', type: 'Person' } },
    });
    assert.ok(walked(byName.body).has(ids.ada!));
  });

  it('drops duplicates by normalized content and explains every candidate', async () => {
    const t = await newTenant(0);
    const { ids } = await remember(t, [
      { content: 'Deploys happen on Tuesdays.', kind: 'decision' },
      { content: '  deploys   happen on TUESDAYS. ', kind: 'observation' },
      { content: 'Deploy freeze in December.', kind: 'decision' },
    ]);
    const reply = await t.post('/v1/context/compile', {
      slice: { planes: ['memory'] },
      query: 'deploys',
      explain: true,
    });
    const p = reply.body;
    assert.equal(p.omitted.by_reason.duplicate, 1);
    assert.equal(p.candidate_count, p.candidates.length);
    const dup = p.candidates.find((c: { omitted_reason: string | null }) => c.omitted_reason === 'duplicate');
    assert.ok([ids[0], ids[1]].includes(dup.id));
    assert.equal(dup.in_context, false);
    assert.match(dup.reason, /duplicate of m\d/);
    assert.ok(
      p.candidates
        .filter((c: { in_context: boolean }) => c.in_context)
        .every((c: { ref: string }) => /^m\d+$/.test(c.ref)),
    );
    // The better-ranked of the two stays: the other one of the pair is in context.
    assert.ok(packIds(p).includes(dup.id === ids[0] ? ids[1] : ids[0]));
    assert.ok(packIds(p).includes(ids[2]));
    assert.equal(p.truncated, false);
  });

  it('renders JSON Lines in the json format, citing the same refs', async () => {
    const t = await newTenant(0);
    await remember(t, [{ content: 'Backups run nightly.', kind: 'fact' }]);
    const reply = await t.post('/v1/context/compile', {
      slice: { format: 'json', planes: ['memory'] },
      query: 'backups',
    });
    assert.equal(reply.body.format, 'json');
    const lines = reply.body.text
      .trim()
      .split('\n')
      .map((l: string) => JSON.parse(l));
    assert.equal(lines[0].context, 'backups');
    assert.equal(lines[1].ref, 'm1');
    assert.equal(lines[1].text, 'Backups run nightly.');
    assert.match(reply.body.markdown, /\[m1\] \(fact, \d{4}-\d{2}-\d{2}\) Backups run nightly\./);
  });

  it('briefs on the pack with the built-in writer', async () => {
    const t = await newTenant(0);
    await remember(t, [
      { content: 'We chose Postgres for billing.', kind: 'decision' },
      { content: 'Billing exports fail on Mondays.', kind: 'signal' },
    ]);
    const reply = await t.post('/v1/context/brief', { slice: { planes: ['memory'] }, query: 'billing' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.model, 'gks-briefing-builtin/1');
    assert.match(reply.body.markdown, /## Decisions\n\n- We chose Postgres for billing\./);
    assert.deepEqual(reply.body.spec.selected_memory_ids, packIds(reply.body.pack));
  });
});
