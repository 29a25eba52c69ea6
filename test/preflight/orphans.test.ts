// Orphans as the audited corpus found them (issue 57): an entity a detach-delete strands is an orphan, and the
// entities a submission names are not (the statement that stages them is what connects them).
import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { audit, commit, createTestShape, entity, findingsOf, stage, type FindingBody } from './support.js';

describe('preflight check: orphans a deleted neighbour leaves, and entities a submission names', () => {
  it('an entity whose last relationship goes with a neighbour the delta deletes is an orphan; one that keeps another is not', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const ids = { core: '', ada: '', bob: '', cy: '' };
    await commit(t, (d) => {
      ids.core = entity(d, t, shape, 'Team', 'Core');
      ids.ada = entity(d, t, shape, 'Person', 'Ada');
      ids.bob = entity(d, t, shape, 'Person', 'Bob');
      ids.cy = entity(d, t, shape, 'Person', 'Cy');
      d.createRelationship(ids.ada, 'MEMBER_OF', ids.core);
      d.createRelationship(ids.bob, 'MEMBER_OF', ids.core);
      d.createRelationship(ids.bob, 'KNOWS', ids.cy);
    });
    // The team is deleted with its relationships (no relationship deletion is recorded for them).
    const deltaId = await stage(t, (d) => d.deleteNode(ids.core));
    const found = await findingsOf(t, deltaId, 'orphans');
    assert.deepEqual(
      found.map((f) => [f.node_ids, f.severity, f.evidence.rule]),
      [[[ids.ada], 'warning', 'orphaned_by_delete']],
      JSON.stringify(found),
    );
    assert.match(found[0]!.message, /Person Ada .* would have no relationship once this delta deletes its last ones/);
  });

  it('"Ada Lovelace met Charles Babbage in London." as a submission stages its three entities with no orphan finding', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/submissions', {
      kind: 'note',
      content: 'Ada Lovelace met Charles Babbage in London.',
      route: 'delta',
      apply: false,
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal((reply.body.submission.entity_ids as string[]).length, 3, JSON.stringify(reply.body));
    const verdict = await audit(t, String(reply.body.delta_id));
    assert.equal(verdict.status, 200, JSON.stringify(verdict.body));
    const findings = verdict.body.findings as FindingBody[];
    assert.deepEqual(
      findings.filter((f) => f.check === 'orphans'),
      [],
    );
    assert.equal(verdict.body.disposition, 'SafeToAct', JSON.stringify(findings));
  });

  it('an entity staged alone beside a submission that does not name it is still an orphan', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let lonely = '';
    const deltaId = await stage(t, (d) => {
      const note = d.createNode(['Submission'], { kind: 'note', content: 'Ada joined.' });
      d.createRelationship(note, 'MENTIONS', entity(d, t, shape, 'Person', 'Ada'));
      lonely = entity(d, t, shape, 'Person', 'Lonely');
    });
    const found = await findingsOf(t, deltaId, 'orphans');
    assert.deepEqual(
      found.map((f) => f.node_ids),
      [[lonely]],
    );
  });
});
