import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors/catalogue.js';
import { applyDelta, type ApplyGuard } from '../../src/deltas/service.js';
import { newTenant } from '../support/api.js';
import { actorOf, createTestShape, entity, graph, snapshot, stage } from '../preflight/support.js';

describe('the apply guard is an explicit dependency of apply', function () {
  this.timeout(180_000);

  it('applyDelta runs the guard it is given inside its transaction; a refusing guard promotes nothing', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const deltaId = await stage(t, (d) => {
      entity(d, t, shape, 'Part', 'bolt');
    });
    const before = await snapshot(t.projectId);
    const seen: string[] = [];
    const refuse: ApplyGuard = async (_tx, id) => {
      seen.push(id);
      throw new ApiError('conflict', 'refused by the test guard');
    };
    await assert.rejects(applyDelta(graph(), deltaId, actorOf(t), null, refuse), /refused by the test guard/);
    assert.deepEqual(seen, [deltaId]);
    assert.deepEqual(await snapshot(t.projectId), before);
    const allow: ApplyGuard = async () => [];
    await applyDelta(graph(), deltaId, actorOf(t), null, allow);
    assert.equal((await t.get(`/v1/deltas/${deltaId}`)).body.delta.status, 'applied');
  });

  it('an override records the findings it overrode on the delta, and a read shows them', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const deltaId = await stage(t, (d) => {
      const part = entity(d, t, shape, 'Part', 'ouroboros');
      d.createRelationship(part, 'PART_OF', part);
    });
    const applied = await t.post(`/v1/deltas/${deltaId}/apply`, {
      override_reason: 'the loop is intended: a test fixture',
    });
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    const read = (await t.get(`/v1/deltas/${deltaId}`)).body.delta;
    assert.equal(read.override_reason, 'the loop is intended: a test fixture');
    assert.deepEqual(
      read.override_findings.map((f: { check: string; severity: string }) => [f.check, f.severity]),
      [['cycles', 'error']],
    );
    assert.equal(applied.body.delta.override_findings.length, 1);

    const plain = await stage(t, (d) => {
      entity(d, t, shape, 'Part', 'washer');
    });
    await t.post(`/v1/deltas/${plain}/apply`, {});
    assert.equal((await t.get(`/v1/deltas/${plain}`)).body.delta.override_findings, null);
  });
});
