import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { audit, createTestShape, entity, stage } from './support.js';

describe('POST /v1/preflight/audit', () => {
  it('a clean staged memory is SafeToAct with exactly the fields of the verdict', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', {
      content: 'The release ships on Monday.',
      kind: 'fact',
      apply: false,
    });
    const reply = await audit(t, staged.body.delta_id, { 'X-Request-Id': 'audit-clean-1' });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, {
      disposition: 'SafeToAct',
      purpose: 'delta-apply',
      findings: [],
      packet_id: `pkt_${staged.body.delta_id}`,
      delta: { degrades: false },
      degraded: [],
      request_id: 'audit-clean-1',
    });
  });

  it('warnings only make ReviewRequired; any error makes Blocked; both degrade', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'Ada prefers tea.' });
    const warned = await t.post('/v1/memories', { content: 'Ada prefers tea', apply: false });
    const review = await audit(t, warned.body.delta_id);
    assert.equal(review.body.disposition, 'ReviewRequired');
    assert.equal(review.body.delta.degrades, true);
    assert.ok(review.body.findings.every((f: { severity: string }) => f.severity === 'warning'));

    const shape = await createTestShape(t);
    const blockedId = await stage(t, (d) => {
      entity(d, t, shape, 'Person', 'Lonely'); // warning: orphan
      d.createRelationship(entity(d, t, shape, 'Part', 'loop'), 'PART_OF', entity(d, t, shape, 'Part', 'loop'));
    });
    const blocked = await audit(t, blockedId);
    assert.equal(blocked.body.disposition, 'Blocked');
    assert.equal(blocked.body.delta.degrades, true);
    const severities = blocked.body.findings.map((f: { severity: string }) => f.severity);
    assert.ok(severities.includes('error') && severities.includes('warning'));
    assert.deepEqual(
      severities,
      [...severities].sort(
        (a: string, b: string) => ['error', 'warning', 'info'].indexOf(a) - ['error', 'warning', 'info'].indexOf(b),
      ),
      'errors first',
    );
  });

  it('info findings alone do not degrade: a node whose shape the same delta creates is SafeToAct', async () => {
    const t = await newTenant(0);
    const deltaId = await stage(t, (d) => {
      const shape = d.createNode(['Shape'], { name: 'draft-shape', version: 1, status: 'draft' });
      entity(d, t, shape, 'Person', 'Ada');
    });
    const reply = await audit(t, deltaId);
    assert.equal(reply.body.disposition, 'SafeToAct');
    assert.equal(reply.body.delta.degrades, false);
    assert.deepEqual(
      reply.body.findings.map((f: { check: string; severity: string; evidence: { rule: string } }) => [
        f.check,
        f.severity,
        f.evidence.rule,
      ]),
      [['shape_properties', 'info', 'shape_pending']],
    );
  });

  it('the same graph and delta give byte-identical verdicts apart from request_id', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', {
      content: 'Ada works at Acme.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'works at',
      object: 'Acme',
    });
    await t.post('/v1/memories', { content: 'Ada prefers tea.' });
    const shape = await createTestShape(t);
    const staged = await t.post('/v1/memories', {
      apply: false,
      memories: [
        { content: 'Ada works at Globex.', kind: 'fact', subject: 'Ada', predicate: 'works at', object: 'Globex' },
        { content: 'ada prefers TEA.' },
        { content: 'Ada prefers tea!' },
      ],
    });
    const other = await stage(t, (d) => {
      for (let i = 0; i < 5; i += 1) entity(d, t, shape, 'Person', `Person ${i}`, { role: 'astronaut' });
    });
    for (const deltaId of [staged.body.delta_id, other]) {
      const replies = await Promise.all([1, 2, 3].map((i) => audit(t, deltaId, { 'X-Request-Id': `same-${i}` })));
      const bodies = replies.map((r) => {
        assert.equal(r.status, 200);
        const { request_id: _ignored, ...rest } = r.body;
        return JSON.stringify(rest);
      });
      assert.ok(JSON.parse(bodies[0]!).findings.length >= 3, bodies[0]);
      assert.equal(bodies[1], bodies[0]);
      assert.equal(bodies[2], bodies[0]);
    }
  });

  it('an unknown delta, or one of another project, is 404', async () => {
    const t = await newTenant(0);
    const other = await newTenant(0);
    const foreign = await other.post('/v1/memories', { content: 'private', apply: false });
    for (const id of ['00000000-0000-4000-8000-000000000000', foreign.body.delta_id]) {
      const reply = await audit(t, id);
      assert.equal(reply.status, 404);
      assert.equal(reply.body.error.code, 'not_found');
    }
  });

  it('a delta that is no longer staged is 409 saying the audit only means something before an apply', async () => {
    const t = await newTenant(0);
    const applied = await t.post('/v1/memories', { content: 'Already in.' });
    const reply = await audit(t, applied.body.delta_id);
    assert.equal(reply.status, 409);
    assert.equal(reply.body.error.code, 'conflict');
    assert.deepEqual(reply.body.error.details, { delta_id: applied.body.delta_id, status: 'applied' });
    assert.match(reply.body.error.message, /staged/);
    const rejected = await t.post('/v1/memories', { content: 'Turned down.', apply: false });
    await t.post(`/v1/deltas/${rejected.body.delta_id}/reject`, {});
    assert.equal((await audit(t, rejected.body.delta_id)).body.error.details.status, 'rejected');
  });

  it('bad input is a 400 naming each field; the scope preflight:run is required', async () => {
    const t = await newTenant(0);
    const missing = await t.post('/v1/preflight/audit', {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.error.details.fields, [{ field: '/body/delta_id', reason: 'is required' }]);
    const wrong = await t.post('/v1/preflight/audit', { delta_id: 7, extra: true });
    assert.deepEqual(wrong.body.error.details.fields.map((f: { field: string }) => f.field).sort(), [
      '/body/delta_id',
      '/body/extra',
    ]);
    const reader = await t.keyWith({ scopes: ['deltas:read'] });
    const refused = await call('POST', '/v1/preflight/audit', { delta_id: 'x' }, { key: reader });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.details.missing_scope, 'preflight:run');
  });

  it('an organization key names the project in the body', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'Org keys audit too.', apply: false });
    const orgKey = await t.keyWith({ organization: true });
    const without = await call('POST', '/v1/preflight/audit', { delta_id: staged.body.delta_id }, { key: orgKey });
    assert.equal(without.status, 400);
    assert.equal(without.body.error.details.fields[0].field, '/body/project_id');
    const withProject = await call(
      'POST',
      '/v1/preflight/audit',
      { delta_id: staged.body.delta_id, project_id: t.projectId },
      { key: orgKey },
    );
    assert.equal(withProject.status, 200);
    assert.equal(withProject.body.disposition, 'SafeToAct');
  });

  it('is published in the OpenAPI document with the finding shape (effect enumerated)', async () => {
    const t = await newTenant(0);
    const doc = (await t.get('/v1/openapi.json')).body;
    const op = doc.paths['/v1/preflight/audit'].post;
    const schema = op.responses['200'].content['application/json'].schema;
    assert.deepEqual(schema.required, ['disposition', 'purpose', 'findings', 'packet_id', 'delta', 'request_id']);
    assert.deepEqual(schema.properties.disposition.enum, ['SafeToAct', 'ReviewRequired', 'Blocked']);
    assert.deepEqual(schema.properties.findings.items.required, [
      'check',
      'severity',
      'effect',
      'message',
      'node_ids',
      'relationship_ids',
      'evidence',
    ]);
    assert.deepEqual(schema.properties.findings.items.properties.severity.enum, ['error', 'warning', 'info']);
    assert.deepEqual(schema.properties.findings.items.properties.effect.enum, ['introduces', 'worsens', 'touches']);
  });
});
