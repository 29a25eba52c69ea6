import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { GENERAL_SHAPE_ID, waitForLoop } from '../loops/support.js';
import { assertGovernedWrite } from '../support/assertions.js';

describe('POST /v1/submissions', function () {
  this.timeout(180_000);

  it('route delta stores the submission with flat payload properties and the entities it names: 201 with every field', async () => {
    const t = await newTenant();
    const reply = await t.post('/v1/submissions', {
      kind: 'meeting-note',
      content: 'Ada Lovelace works for Analytical Engines Ltd.',
      payload: { attendees: 3, room: { name: 'Babbage', floor: 2 } },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const b = reply.body;
    assertGovernedWrite(b, t.projectId, 'applied');
    assert.equal(b.route, 'delta');
    assert.equal(b.submission.kind, 'meeting-note');
    assert.equal(b.submission.entity_ids.length, 2);
    const [node] = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        `MATCH (s:Submission {id: $id}) OPTIONAL MATCH (s)-[:MENTIONS]->(e:Entity)
       RETURN s.kind AS kind, s.\`payload.attendees\` AS attendees, s.\`payload.room.name\` AS room, s:Pending AS pending, collect(e.name) AS names`,
        { id: b.id },
      ),
    );
    assert.deepEqual(
      { ...node, names: (node?.names as string[]).sort() },
      {
        kind: 'meeting-note',
        attendees: 3,
        room: 'Babbage',
        pending: false,
        names: ['Ada Lovelace', 'Analytical Engines Ltd.'],
      },
    );
  });

  it('route delta with apply false stays staged until its delta is applied', async () => {
    const t = await newTenant();
    const reply = await t.post('/v1/submissions', { kind: 'form', payload: { answer: 'yes' }, apply: false });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.status, 'staged');
    assert.equal(reply.body.applied, false);
    const delta = await t.get(`/v1/deltas/${reply.body.delta_id}`);
    assert.equal(delta.body.delta.status, 'staged');
    assert.equal(delta.body.delta.origin, 'submission');
  });

  it('route document indexes the content as a document', async () => {
    const t = await newTenant();
    const reply = await t.post('/v1/submissions', {
      kind: 'note',
      route: 'document',
      content: 'Quarterly goals: ship the search revamp.',
      title: 'Q3 goals',
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.route, 'document');
    const doc = await t.get(`/v1/documents/${reply.body.id}`);
    assert.equal(doc.status, 200);
    assert.equal(doc.body.source.title, 'Q3 goals');
  });

  it('route extraction indexes the content and stages an extraction through the shape', async () => {
    const t = await newTenant(100);
    const reply = await t.post('/v1/submissions', {
      kind: 'note',
      route: 'extraction',
      shape_id: GENERAL_SHAPE_ID,
      content: 'Grace Hopper works for Remington Rand.',
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.route, 'extraction');
    assert.equal(reply.body.status, 'staged');
    assert.equal(reply.body.applied, false);
    const status = await waitForLoop(t, reply.body.loop_id);
    assert.equal(status.status, 'completed');
    assert.equal(status.delta_id, reply.body.delta_id);
    const delta = await t.get(`/v1/deltas/${reply.body.delta_id}`);
    assert.ok(
      delta.body.delta.changes.some(
        (c: { properties: { name?: string } | null }) => c.properties?.name === 'Grace Hopper',
      ),
    );
  });

  for (const [name, body, field, code] of [
    ['a missing kind', { content: 'x' }, '/body/kind', 'invalid_request'],
    ['neither content nor payload', { kind: 'note' }, '/body/content', 'invalid_request'],
    ['an unknown route', { kind: 'note', content: 'x', route: 'email' }, '/body/route', 'invalid_request'],
    ['a payload that is not an object', { kind: 'note', payload: [1, 2] }, '/body/payload', 'invalid_request'],
    [
      'route extraction without shape_id',
      { kind: 'note', content: 'x', route: 'extraction' },
      '/body/shape_id',
      'invalid_request',
    ],
    [
      'route extraction with an unknown shape',
      { kind: 'note', content: 'x', route: 'extraction', shape_id: 'nope' },
      '/body/shape_id',
      'invalid_request',
    ],
    [
      'route extraction asking to apply',
      { kind: 'note', content: 'x', route: 'extraction', shape_id: GENERAL_SHAPE_ID, apply: true },
      '/body/apply',
      'apply_not_supported_for_loops',
    ],
    [
      'route document without content',
      { kind: 'note', payload: { a: 1 }, route: 'document' },
      '/body/content',
      'invalid_request',
    ],
  ] as const) {
    it(`${name} is a 400 naming ${field} and writes nothing`, async () => {
      const t = await newTenant();
      const reply = await t.post('/v1/submissions', body);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.equal(reply.body.error.code, code);
      assert.ok(
        reply.body.error.details.fields.some((f: { field: string }) => f.field === field),
        JSON.stringify(reply.body.error),
      );
      const [row] = await harness().service.deps.graph.read((tx) =>
        tx.runText('MATCH (n:Knowledge {project_id: $p}) RETURN count(n) AS n', { p: t.projectId }),
      );
      assert.equal(row?.n, 0);
    });
  }

  it('a deep or wide payload introduces a bounded number of property keys; the whole of it is kept as JSON text', async () => {
    const t = await newTenant(0);
    const wide = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [`field_${String(i).padStart(3, '0')}`, { a: i, b: String(i) }]),
    );
    const deep = { a: { b: { c: { d: 'deep' } } }, 'odd key!': 1, list: [{ x: 1 }] };
    for (const payload of [wide, deep]) {
      const reply = await t.post('/v1/submissions', { kind: 'form', payload });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const [node] = await harness().service.deps.graph.read((tx) =>
        tx.runText('MATCH (s:Submission {id: $id}) RETURN keys(s) AS keys, s.payload_json AS json', {
          id: reply.body.id ?? reply.body.submission_id,
        }),
      );
      const keys = (node?.keys ?? []) as string[];
      const payloadKeys = keys.filter((k) => k.startsWith('payload'));
      assert.ok(payloadKeys.length <= 33, `${payloadKeys.length} payload keys`);
      assert.deepEqual(JSON.parse(String(node?.json)), payload, 'the whole payload is kept');
    }
    // A small, shallow payload stays flat, with no JSON text.
    const small = await t.post('/v1/submissions', { kind: 'form', payload: { room: { name: 'Babbage' }, seats: 4 } });
    const [flat] = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (s:Submission {id: $id}) RETURN s.`payload.room.name` AS room, s.payload_json AS json', {
        id: small.body.id ?? small.body.submission_id,
      }),
    );
    assert.equal(flat?.room, 'Babbage');
    assert.equal(flat?.json, null);
  });
});
