import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { audit, createTestShape, entity, snapshot, stage } from './support.js';

describe('applying honours the preflight verdict', () => {
  it('an apply of a delta whose audit has errors is refused with 409 naming the packet and its error findings; nothing is promoted', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const deltaId = await stage(t, (d) => {
      const part = entity(d, t, shape, 'Part', 'ouroboros');
      d.createRelationship(part, 'PART_OF', part);
    });
    const before = await snapshot(t.projectId);
    const refused = await t.post(`/v1/deltas/${deltaId}/apply`, {});
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'conflict');
    assert.equal(refused.body.error.details.packet_id, `pkt_${deltaId}`);
    assert.match(refused.body.error.message, new RegExp(`pkt_${deltaId}`));
    assert.deepEqual(
      refused.body.error.details.findings.map((f: { check: string }) => f.check),
      ['cycles'],
    );
    assert.deepEqual(
      refused.body.error.details.findings,
      (await audit(t, deltaId)).body.findings.filter((f: { severity: string }) => f.severity === 'error'),
    );
    assert.deepEqual(await snapshot(t.projectId), before);
    assert.equal((await t.get(`/v1/deltas/${deltaId}`)).body.delta.status, 'staged');
  });

  it('override_reason applies it anyway and is recorded on the delta and shown when it is read', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const deltaId = await stage(t, (d) => {
      const part = entity(d, t, shape, 'Part', 'ouroboros');
      d.createRelationship(part, 'PART_OF', part);
    });
    const applied = await t.post(`/v1/deltas/${deltaId}/apply`, {
      override_reason: 'the loop is intended: a test fixture',
    });
    assert.equal(applied.status, 200);
    assert.equal(applied.body.delta.status, 'applied');
    const read = await t.get(`/v1/deltas/${deltaId}`);
    assert.equal(read.body.delta.override_reason, 'the loop is intended: a test fixture');
    assert.equal((await audit(t, deltaId)).status, 409, 'an applied delta is no longer audited');
  });

  it('a delta with warnings only (ReviewRequired) or none applies without an override', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'Ada prefers tea.' });
    const warned = await t.post('/v1/memories', { content: 'ada prefers tea', apply: false });
    assert.equal((await audit(t, warned.body.delta_id)).body.disposition, 'ReviewRequired');
    const applied = await t.post(`/v1/deltas/${warned.body.delta_id}/apply`, {});
    assert.equal(applied.status, 200);
    assert.equal(applied.body.delta.override_reason, null);
  });

  it('the guard judges the graph at apply time: a delta made Blocked by a later write is refused', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const deltaId = await stage(t, (d) => {
      entity(d, t, shape, 'Team', 'Core');
    });
    assert.equal((await audit(t, deltaId)).body.disposition, 'SafeToAct');
    const rival = await stage(t, (d) => {
      entity(d, t, shape, 'Team', 'core');
    });
    assert.equal((await t.post(`/v1/deltas/${rival}/apply`, {})).status, 200);
    const refused = await t.post(`/v1/deltas/${deltaId}/apply`, {});
    assert.equal(refused.status, 409);
    assert.deepEqual(
      refused.body.error.details.findings.map((f: { evidence: { rule: string } }) => f.evidence.rule),
      ['same_identity'],
    );
  });
});
