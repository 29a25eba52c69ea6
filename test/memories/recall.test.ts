import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';

describe('memory recall', () => {
  it('search ranks committed memories of the project with nodes, edges and count', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', {
      content: 'The team prefers dark mode for dashboards.',
      kind: 'preference',
      subject: 'Dashboards',
    });
    await t.post('/v1/memories', { content: 'Deploys happen on Tuesdays.', kind: 'fact' });
    const reply = await t.post('/v1/memories/search', { query: 'dashboard preferences', limit: 5 });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.query, 'dashboard preferences');
    assert.equal(reply.body.project_id, t.projectId);
    assert.deepEqual(reply.body.planes, ['memory']);
    assert.equal(reply.body.count, 1);
    const node = reply.body.nodes[0];
    assert.equal(node.properties.content, 'The team prefers dark mode for dashboards.');
    assert.equal(node.type, 'memory');
    assert.equal(node.plane, 'memory');
    assert.equal('project_id' in node, false);
    assert.equal('date_observed' in node.properties, false);
    assert.equal(reply.body.edges.length, 1);
    assert.deepEqual(
      {
        type: reply.body.edges[0].type,
        source: reply.body.edges[0].source,
        target_name: reply.body.edges[0].target_name,
        target_label: reply.body.edges[0].target_label,
      },
      { type: 'HAS_SUBJECT', source: node.id, target_name: 'Dashboards', target_label: 'Entity' },
    );
  });

  it('an answered memory is read whole in every mode: search shows each property a direct read shows', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', {
      content: 'Nadia Okafor leads the Lisbon office from 2025.',
      kind: 'fact',
      subject: 'Nadia Okafor',
      predicate: 'leads',
      object: 'Lisbon office',
      source_context: 'org chart review',
      valid_from: '2025-01-01T00:00:00.000Z',
      valid_to: '2030-01-01T00:00:00.000Z',
      forget_after: '2099-01-01T00:00:00.000Z',
      forget_reason: 'reviewed yearly',
    });
    assert.equal(created.status, 201);
    const direct = (await t.get(`/v1/memories/${created.body.id}`)).body.memory;
    const { date_observed: _observed, ...expected } = direct.properties;
    for (const mode of ['lexical', 'hybrid'] as const) {
      for (const [path, body] of [
        ['/v1/memories/search', { query: 'Lisbon office', mode }],
        ['/v1/search', { query: 'Lisbon office', mode, planes: ['memory'] }],
      ] as const) {
        const reply = await t.post(path, body);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        const node = reply.body.nodes.find((n: { id: string }) => n.id === created.body.id);
        assert.ok(node, `${path} ${mode} finds the memory`);
        assert.deepEqual(
          { name: node.name, created_at: node.created_at, updated_at: node.updated_at, properties: node.properties },
          { name: direct.name, created_at: direct.created_at, updated_at: direct.updated_at, properties: expected },
          `${path} ${mode}`,
        );
      }
    }
  });

  it('a staged memory is not recalled until its delta is applied', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'Quarterly planning is in March.', apply: false });
    assert.equal((await t.post('/v1/memories/search', { query: 'quarterly planning' })).body.count, 0);
    await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal((await t.post('/v1/memories/search', { query: 'quarterly planning' })).body.count, 1);
  });

  it('a memory past forget_after is no longer recalled but a direct read shows it as not recallable', async () => {
    const t = await newTenant(0);
    const soon = new Date(Date.now() + 1500).toISOString();
    const created = await t.post('/v1/memories', {
      content: 'Temporary door code is 4242.',
      forget_after: soon,
      forget_reason: 'rotates weekly',
    });
    assert.equal((await t.post('/v1/memories/search', { query: 'door code' })).body.count, 1);
    await new Promise((r) => setTimeout(r, 1700));
    assert.equal((await t.post('/v1/memories/search', { query: 'door code' })).body.count, 0);
    assert.equal((await t.post('/v1/memories/search', {})).body.count, 0);
    const read = await t.get(`/v1/memories/${created.body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.memory.recallable, false);
    assert.equal(read.body.memory.properties.forget_reason, 'rotates weekly');
    assert.equal(read.body.memory.properties.forget_after, soon);
  });

  it('search text that looks like Lucene syntax cannot break the query', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'Use (parentheses) and "quotes" AND stars* freely: a/b.' });
    for (const query of [
      '(parentheses',
      '"quotes',
      'AND OR NOT',
      'stars* ~2 ^3',
      'a/b:c\\',
      '+-&&||!{}[]',
      'tenant:x',
    ]) {
      const reply = await t.post('/v1/memories/search', { query });
      assert.equal(reply.status, 200, `${query}: ${JSON.stringify(reply.body)}`);
    }
    assert.equal((await t.post('/v1/memories/search', { query: '(parentheses' })).body.count, 1);
  });

  it('limit defaults to 10, may be at most 100, and kinds filter', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', {
      memories: Array.from({ length: 15 }, (_, i) => ({
        content: `Widget note ${i}`,
        kind: i < 5 ? 'lesson' : 'fact',
      })),
    });
    assert.equal((await t.post('/v1/memories/search', { query: 'widget' })).body.count, 10);
    assert.equal((await t.post('/v1/memories/search', { query: 'widget', limit: 100 })).body.count, 15);
    assert.equal((await t.post('/v1/memories/search', { query: 'widget', kinds: ['lesson'] })).body.count, 5);
    const bad = await t.post('/v1/memories/search', { query: 'widget', limit: 101 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.fields[0].field, '/body/limit');
  });

  it("projects never see each other's memories", async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const created = await a.post('/v1/memories', { content: 'Secret roadmap item zebra.' });
    await b.post('/v1/memories', { content: 'Public zebra facts.' });
    const found = await b.post('/v1/memories/search', { query: 'zebra roadmap' });
    assert.deepEqual(
      found.body.nodes.map((n: { properties: { content: string } }) => n.properties.content),
      ['Public zebra facts.'],
    );
    assert.equal((await b.get(`/v1/memories/${created.body.id}`)).status, 404);
    const synth = await b.post('/v1/memories/synthesize', { query: 'zebra roadmap' });
    assert.ok(!synth.body.markdown.includes('Secret'));
  });

  it('synthesize writes a deterministic briefing from the evidence with the fields of docs/memories.md', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', {
      memories: [
        { content: 'We decided to release on Fridays.', kind: 'decision' },
        { content: 'Friday releases need a rollback plan.', kind: 'lesson' },
        { content: 'Release notes are written by the PM.', kind: 'fact' },
      ],
    });
    const first = await t.post('/v1/memories/synthesize', { query: 'release' });
    assert.equal(first.status, 200);
    const b = first.body;
    assert.equal(b.format, 'markdown');
    assert.equal(b.project_id, t.projectId);
    assert.equal(b.spec.purpose, 'operational-briefing');
    assert.equal(b.spec.output_type, 'SituationBriefing');
    assert.equal(b.spec.query, 'release');
    assert.equal(b.spec.selected_memory_ids.length, 3);
    assert.equal(b.spec.candidate_count, 3);
    for (const h of ['structural', 'operational', 'denotative']) assert.match(b.spec.hashes[h], /^[0-9a-f]{64}$/);
    assert.deepEqual(b.sources, []);
    assert.equal(b.persisted, false);
    assert.equal(b.model, 'gks-briefing-builtin/1');
    assert.ok(b.markdown.indexOf('Decisions') < b.markdown.indexOf('Lessons'));
    assert.ok(b.text.includes('We decided to release on Fridays'));
    const second = await t.post('/v1/memories/synthesize', { query: 'release' });
    assert.deepEqual(second.body.spec.hashes, b.spec.hashes);
    assert.equal(second.body.markdown, b.markdown);
  });

  it('synthesize requires a query', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/memories/synthesize', {});
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details.fields[0].field, '/body/query');
  });
});
