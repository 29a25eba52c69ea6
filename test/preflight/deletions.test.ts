// Checks that must see what the delta itself takes away: relationships and nodes it deletes are gone
// for cycles, losses and orphans; a correction's new content is checked for duplicates.
import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { patch } from '../governance/support.js';
import { commit, createTestShape, entity, findingsOf, rules, stage } from './support.js';

async function memory(t: Awaited<ReturnType<typeof newTenant>>, body: Record<string, unknown>) {
  const reply = await t.post('/v1/memories', body);
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return { id: String(reply.body.id), delta_id: String(reply.body.delta_id) };
}

describe('preflight check: duplicates of corrected content', () => {
  it('a PATCH whose content equals another committed memory once normalized is a warning naming both', async () => {
    const t = await newTenant(0);
    const kept = await memory(t, { content: 'Deploys happen on Friday.' });
    const edited = await memory(t, { content: 'Deploys happen on Monday.' });
    const reply = await patch(t, `/v1/memories/${edited.id}`, {
      content: 'deploys -- happen on FRIDAY!',
      apply: false,
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const found = await findingsOf(t, String(reply.body.delta_id), 'duplicates');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'warning');
    assert.equal(found[0]!.evidence.rule, 'corrected_to_content');
    assert.equal(found[0]!.evidence.committed_node_id, kept.id);
    assert.deepEqual(found[0]!.node_ids, [kept.id, edited.id].sort());
  });

  it('a PATCH to distinct content, or to the content the memory already has, is no duplicate', async () => {
    const t = await newTenant(0);
    await memory(t, { content: 'Deploys happen on Friday.' });
    const edited = await memory(t, { content: 'Deploys happen on Monday.' });
    for (const content of ['Deploys happen on Tuesday.', 'Deploys happen on Monday!']) {
      const reply = await patch(t, `/v1/memories/${edited.id}`, { content, apply: false });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(await findingsOf(t, String(reply.body.delta_id), 'duplicates'), [], content);
    }
  });
});

describe('preflight check: cycles with relationships the delta deletes', () => {
  it('a cycle the delta breaks by deleting a relationship of it passes; deleting another one does not help', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const ids: string[] = [];
    const rels: string[] = [];
    await commit(t, (d) => {
      for (const name of ['wheel', 'axle', 'car', 'bolt']) ids.push(entity(d, t, shape, 'Part', name));
      rels.push(d.createRelationship(ids[0]!, 'PART_OF', ids[1]!));
      rels.push(d.createRelationship(ids[1]!, 'PART_OF', ids[2]!));
      rels.push(d.createRelationship(ids[3]!, 'PART_OF', ids[0]!));
    });
    const [wheel, axle, car, bolt] = ids;
    const elsewhere = await stage(t, (d) => {
      d.deleteRelationship(rels[2]!, bolt!);
      d.createRelationship(car!, 'PART_OF', wheel!);
    });
    const found = await findingsOf(t, elsewhere, 'cycles');
    assert.equal(found.length, 1);
    assert.deepEqual(found[0]!.evidence.path, [car, wheel, axle, car]);
    const broken = await stage(t, (d) => {
      d.deleteRelationship(rels[1]!, axle!);
      d.createRelationship(car!, 'PART_OF', wheel!);
    });
    assert.deepEqual(await findingsOf(t, broken, 'cycles'), []);
  });
});

describe('preflight check: losses with relationships the delta deletes', () => {
  async function team(t: Awaited<ReturnType<typeof newTenant>>) {
    const shape = await createTestShape(t);
    const ids = { core: '', ada: '', bob: '', adaLink: '', bobLink: '' };
    await commit(t, (d) => {
      ids.core = entity(d, t, shape, 'Team', 'Core');
      ids.ada = entity(d, t, shape, 'Person', 'Ada');
      ids.bob = entity(d, t, shape, 'Person', 'Bob');
      ids.adaLink = d.createRelationship(ids.ada, 'MEMBER_OF', ids.core);
      ids.bobLink = d.createRelationship(ids.bob, 'MEMBER_OF', ids.core);
    });
    return ids;
  }

  it('a deleted relationship is not counted as lost, the ones left are', async () => {
    const t = await newTenant(0);
    const ids = await team(t);
    const deltaId = await stage(t, (d) => {
      d.deleteRelationship(ids.adaLink, ids.ada);
      d.deleteNode(ids.core);
    });
    const found = await findingsOf(t, deltaId, 'losses');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.evidence.dependent_count, 1);
    assert.deepEqual(found[0]!.relationship_ids, [ids.bobLink]);
    assert.deepEqual(found[0]!.node_ids, [ids.core, ids.bob].sort());
  });

  it('a node whose every dependent relationship the delta deletes first is no loss', async () => {
    const t = await newTenant(0);
    const ids = await team(t);
    const deltaId = await stage(t, (d) => {
      d.deleteRelationship(ids.adaLink, ids.ada);
      d.deleteRelationship(ids.bobLink, ids.bob);
      d.deleteNode(ids.core);
    });
    assert.deepEqual(await findingsOf(t, deltaId, 'losses'), []);
  });
});

describe('preflight check: orphans left by deletions', () => {
  it('an entity whose last domain relationship the delta deletes is a warning; a type the shape allows alone is not', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const ids = { core: '', ada: '', link: '' };
    await commit(t, (d) => {
      ids.core = entity(d, t, shape, 'Team', 'Core');
      ids.ada = entity(d, t, shape, 'Person', 'Ada');
      const s = d.createNode(['Submission'], { kind: 'note' });
      d.createRelationship(s, 'MENTIONS', ids.ada); // provenance: does not keep Ada connected
      ids.link = d.createRelationship(ids.ada, 'MEMBER_OF', ids.core);
    });
    const deltaId = await stage(t, (d) => d.deleteRelationship(ids.link, ids.ada));
    const found = await findingsOf(t, deltaId, 'orphans');
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0]!.evidence.rule, 'orphaned_by_delete');
    assert.deepEqual(found[0]!.node_ids, [ids.ada]);
    // Deleting the team with the link leaves Ada alone too (the team's end is gone either way).
    const both = await stage(t, (d) => {
      d.deleteRelationship(ids.link, ids.ada);
      d.deleteNode(ids.core);
    });
    assert.deepEqual(rules(await findingsOf(t, both, 'orphans')), ['orphaned_by_delete']);
  });

  it('an entity that keeps another relationship, or gets a new one in the delta, is no orphan', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const ids = { core: '', ada: '', bob: '', link: '' };
    await commit(t, (d) => {
      ids.core = entity(d, t, shape, 'Team', 'Core');
      ids.ada = entity(d, t, shape, 'Person', 'Ada');
      ids.bob = entity(d, t, shape, 'Person', 'Bob');
      ids.link = d.createRelationship(ids.ada, 'MEMBER_OF', ids.core);
      d.createRelationship(ids.bob, 'KNOWS', ids.ada);
    });
    const kept = await stage(t, (d) => d.deleteRelationship(ids.link, ids.ada));
    assert.deepEqual(await findingsOf(t, kept, 'orphans'), []);
    const moved = await stage(t, (d) => {
      d.deleteRelationship(ids.link, ids.ada);
      d.createRelationship(ids.ada, 'MEMBER_OF', entity(d, t, shape, 'Team', 'Platform'));
    });
    assert.deepEqual(await findingsOf(t, moved, 'orphans'), []);
  });
});
