import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { commit, createTestShape, entity, graph } from '../preflight/support.js';
import { markExtractionFinished } from '../../src/documents/service.js';
import { del, memory, patch, rulesOf, verdict } from './support.js';

describe('corrections: memories', function () {
  this.timeout(600_000); // a shared 2-core machine: plans of the checks can take minutes
  it('a PATCH staged with apply false changes nothing until applied, and revert restores content and subject link', async () => {
    const t = await newTenant(0);
    const m = await memory(t, {
      content: 'Ada lives in London.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'lives in',
      object: 'London',
    });
    const staged = await patch(t, `/v1/memories/${m.id}`, {
      content: 'Ada lives in Paris.',
      object: 'Paris',
      apply: false,
    });
    assert.equal(staged.status, 200, JSON.stringify(staged.body));
    assert.equal(staged.body.status, 'staged');
    assert.equal((await t.get(`/v1/memories/${m.id}`)).body.memory.properties.content, 'Ada lives in London.');
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})).status, 200);
    const after = (await t.get(`/v1/memories/${m.id}`)).body.memory;
    assert.equal(after.properties.content, 'Ada lives in Paris.');
    assert.equal(after.properties.object, 'Paris');
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/revert`, {})).status, 200);
    const reverted = (await t.get(`/v1/memories/${m.id}`)).body.memory;
    assert.equal(reverted.properties.content, 'Ada lives in London.');
    const [row] = await graph().read((tx) =>
      tx.runText('MATCH (:Memory {id: $id})-[:HAS_OBJECT]->(o) RETURN collect(o.name) AS names', { id: m.id }),
    );
    assert.deepEqual(row?.names, ['London']);
  });

  it('DELETE removes the memory, history lists the creating and deleting deltas, revert brings it back', async () => {
    const t = await newTenant(0);
    const m = await memory(t, { content: 'We deploy on Fridays.', kind: 'decision' });
    const gone = await del(t, `/v1/memories/${m.id}`);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal((await t.get(`/v1/memories/${m.id}`)).status, 404);
    const history = await t.get(`/v1/memories/${m.id}/history`);
    assert.equal(history.status, 200, JSON.stringify(history.body));
    assert.deepEqual(
      history.body.deltas.map((d: { id: string }) => d.id),
      [m.delta_id, gone.body.delta_id],
    );
    assert.deepEqual(history.body.deltas[1].ops, ['delete_node']);
    assert.equal((await t.post(`/v1/deltas/${gone.body.delta_id}/revert`, {})).status, 200);
    assert.equal((await t.get(`/v1/memories/${m.id}`)).status, 200);
  });

  it('bad input is a 400 with pointers; a memory of another project is a 404', async () => {
    const t = await newTenant(0);
    const other = await newTenant(0);
    const m = await memory(other, { content: 'Private.' });
    const empty = await patch(t, `/v1/memories/${m.id}`, { apply: false });
    assert.equal(empty.status, 400);
    const wrong = await patch(t, `/v1/memories/${m.id}`, { kind: 'nonsense' });
    assert.equal(wrong.status, 400);
    assert.ok(JSON.stringify(wrong.body.error.details.fields).includes('/body/kind'), JSON.stringify(wrong.body));
    assert.equal((await patch(t, `/v1/memories/${m.id}`, { content: 'Mine now.' })).status, 404);
    assert.equal((await del(t, `/v1/memories/${m.id}`)).status, 404);
    assert.equal((await t.post(`/v1/memories/${m.id}/supersede`, { by: { content: 'x' }, reason: 'r' })).status, 404);
    assert.equal((await t.get(`/v1/memories/${m.id}/history`)).status, 404);
  });

  it('supersede records (new)-[:SUPERSEDES]->(old) so the contradiction is acknowledged', async () => {
    const t = await newTenant(0);
    const old = await memory(t, {
      content: 'Ada lives in London.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'lives in',
      object: 'London',
    });
    const contradicting = await memory(t, {
      content: 'Ada lives in Paris.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'lives in',
      object: 'Paris',
      apply: false,
    });
    assert.deepEqual(rulesOf((await verdict(t, contradicting.delta_id)).findings, 'contradictions'), [
      'contradictions:conflicting_object',
    ]);
    const superseding = await t.post(`/v1/memories/${old.id}/supersede`, {
      by: { content: 'Ada lives in Paris now.', kind: 'fact', subject: 'Ada', predicate: 'lives in', object: 'Paris' },
      reason: 'she moved',
      apply: false,
    });
    assert.equal(superseding.status, 201, JSON.stringify(superseding.body));
    const unnamed = await t.post(`/v1/memories/${old.id}/supersede`, {
      by: { content: 'Ada lives somewhere.', subject: { id: '', name: '»' } },
      reason: 'no name',
    });
    assert.equal(unnamed.status, 400, JSON.stringify(unnamed.body));
    assert.equal(unnamed.body.error.details.fields[0].field, '/body/by/subject');
    assert.deepEqual(rulesOf((await verdict(t, superseding.body.delta_id)).findings, 'contradictions'), []);
    assert.equal((await t.post(`/v1/deltas/${superseding.body.delta_id}/apply`, {})).status, 200);
    const [row] = await graph().read((tx) =>
      tx.runText('MATCH (n)-[s:SUPERSEDES]->(:Memory {id: $id}) RETURN n.id AS id, s.reason AS reason', { id: old.id }),
    );
    assert.deepEqual(row, { id: superseding.body.id, reason: 'she moved' });
  });
});

describe('corrections: entities', function () {
  this.timeout(600_000); // a shared 2-core machine: plans of the checks can take minutes
  it('PATCH type changes the label, revert restores it; a type outside the ontology is an ontology warning', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let ada = '';
    await commit(t, (d) => {
      ada = entity(d, t, shape, 'Person', 'Ada');
    });
    const outside = await patch(t, `/v1/entities/${ada}`, { type: 'Spaceship', apply: false });
    assert.equal(outside.status, 200, JSON.stringify(outside.body));
    assert.deepEqual(rulesOf((await verdict(t, outside.body.delta_id)).findings, 'ontology'), [
      'ontology:type_not_in_shape',
    ]);
    await t.post(`/v1/deltas/${outside.body.delta_id}/reject`, {});
    const retyped = await patch(t, `/v1/entities/${ada}`, { type: 'Team', properties: { nickname: 'A' } });
    assert.equal(retyped.status, 200, JSON.stringify(retyped.body));
    const labels = async () =>
      (
        await graph().read((tx) => tx.runText('MATCH (n {id: $id}) RETURN labels(n) AS l, n.type AS type', { id: ada }))
      )[0];
    assert.ok(((await labels())!.l as string[]).includes('Team'));
    assert.equal((await t.post(`/v1/deltas/${retyped.body.delta_id}/revert`, {})).status, 200);
    const back = (await labels())!;
    assert.ok((back.l as string[]).includes('Person') && !(back.l as string[]).includes('Team'));
    assert.equal(back.type, 'Person');
  });

  it('PATCH refuses engine labels and properties (400) and non-entities (404)', async () => {
    const t = await newTenant(0);
    const m = await memory(t, { content: 'Not an entity.' });
    assert.equal((await patch(t, `/v1/entities/${m.id}`, { name: 'x' })).status, 404);
    assert.equal((await patch(t, `/v1/entities/${m.id}`, { type: 'Memory' })).status, 400);
    const engine = await patch(t, `/v1/entities/${m.id}`, { properties: { project_id: 'p' } });
    assert.equal(engine.status, 400);
    const reader = await t.keyWith({ scopes: ['memories:read', 'memories:write'] });
    const refused = await call('PATCH', `/v1/entities/${m.id}`, { name: 'x' }, { key: reader });
    assert.equal(refused.status, 403);
    assert.match(JSON.stringify(refused.body), /entities:write/);
  });

  it('DELETE with dependants is a 409 naming them; detach deletes, revert restores the relationships', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let team = '';
    let ada = '';
    await commit(t, (d) => {
      team = entity(d, t, shape, 'Team', 'Core');
      ada = entity(d, t, shape, 'Person', 'Ada');
      d.createRelationship(ada, 'MEMBER_OF', team);
    });
    const refused = await del(t, `/v1/entities/${team}`);
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body.error.details.dependant_ids, [ada]);
    const staged = await del(t, `/v1/entities/${team}?detach=true&apply=false`);
    assert.equal(staged.status, 200, JSON.stringify(staged.body));
    assert.deepEqual(rulesOf((await verdict(t, staged.body.delta_id)).findings, 'losses'), [
      'losses:deletes_depended_on',
    ]);
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})).status, 200);
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/revert`, {})).status, 200);
    const [row] = await graph().read((tx) =>
      tx.runText('MATCH (:Entity {id: $a})-[r:MEMBER_OF]->(:Entity {id: $t}) RETURN count(r) AS n', {
        a: ada,
        t: team,
      }),
    );
    assert.equal(row?.n, 1);
  });

  it('merge moves relationships onto into, records merged ids, raises no loss, and reverts', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let team = '';
    let ada = '';
    let copy = '';
    let bob = '';
    await commit(t, (d) => {
      team = entity(d, t, shape, 'Team', 'Core');
      ada = entity(d, t, shape, 'Person', 'Ada Lovelace');
      copy = entity(d, t, shape, 'Person', 'A. Lovelace');
      bob = entity(d, t, shape, 'Person', 'Bob');
      d.createRelationship(copy, 'MEMBER_OF', team);
      d.createRelationship(bob, 'KNOWS', copy);
    });
    const staged = await t.post('/v1/entities/merge', { into: ada, from: [copy], apply: false });
    assert.equal(staged.status, 200, JSON.stringify(staged.body));
    assert.equal(staged.body.moved_relationships, 2);
    assert.deepEqual(rulesOf((await verdict(t, staged.body.delta_id)).findings, 'losses'), []);
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})).status, 200);
    const [row] = await graph().read((tx) =>
      tx.runText(
        'MATCH (a:Entity {id: $a}) RETURN a.merged_ids AS merged, COUNT { (a)-[:MEMBER_OF]->(:Entity {id: $t}) } AS member, COUNT { (a)<-[:KNOWS]-(:Entity {id: $b}) } AS known, COUNT { MATCH (x:Knowledge {id: $c}) } AS copies',
        { a: ada, t: team, b: bob, c: copy },
      ),
    );
    assert.deepEqual(row, { merged: [copy], member: 1, known: 1, copies: 0 });
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/revert`, {})).status, 200);
    const [back] = await graph().read((tx) =>
      tx.runText('MATCH (c:Entity {id: $c})-[:MEMBER_OF]->() RETURN count(*) AS n', { c: copy }),
    );
    assert.equal(back?.n, 1);
    assert.equal((await t.post('/v1/entities/merge', { into: ada, from: [ada] })).status, 400);
    assert.equal(
      (await t.post('/v1/entities/merge', { into: ada, from: ['00000000-0000-4000-8000-000000000000'] })).status,
      404,
    );
  });
});

describe('corrections: documents', function () {
  this.timeout(600_000); // a shared 2-core machine: plans of the checks can take minutes
  it('reindex with new content replaces the chunks and makes an extracted document outdated; DELETE removes it with its chunks', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/documents', {
      content: 'First version of the handbook. '.repeat(20),
      title: 'Handbook',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    await markExtractionFinished(graph(), t.projectId, id, { shapeName: 'general', tokenCount: 1, charCount: 1 });
    assert.equal((await t.get(`/v1/documents/${id}`)).body.source.status.outdated, false);
    assert.equal(
      (await t.post(`/v1/documents/${id}/reindex`, { content: 'First version of the handbook. '.repeat(20) })).status,
      409,
    );
    const re = await t.post(`/v1/documents/${id}/reindex`, { content: 'Second version, rewritten. '.repeat(30) });
    assert.equal(re.status, 200, JSON.stringify(re.body));
    assert.equal((await t.get(`/v1/documents/${id}`)).body.source.status.outdated, true);
    const gone = await del(t, `/v1/documents/${id}`);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal((await t.get(`/v1/documents/${id}`)).status, 404);
    const [row] = await graph().read((tx) =>
      tx.runText('MATCH (c:Chunk {document_id: $id}) RETURN count(c) AS n', { id }),
    );
    assert.equal(row?.n, 0);
    assert.equal((await t.post(`/v1/documents/${id}/reindex`, { refetch: true, content: 'x' })).status, 400);
  });
});

describe('corrections: shapes re-checked at apply', function () {
  this.timeout(600_000);
  it('a shape deletion staged while unused is refused at apply once an instance appeared; without one it applies', async () => {
    const t = await newTenant(0);
    const make = async (name: string) =>
      String(
        (
          await t.post('/v1/shapes', {
            name,
            entity_types: [{ label: 'Gadget', properties: [{ name: 'name', type: 'string' }] }],
            orphans_allowed: ['Gadget'],
          })
        ).body.id,
      );
    const used = await make('used-later');
    const unused = await make('never-used');
    const deleteUsed = await del(t, `/v1/shapes/${used}?apply=false`);
    const deleteUnused = await del(t, `/v1/shapes/${unused}?apply=false`);
    assert.equal(deleteUsed.body.status, 'staged', JSON.stringify(deleteUsed.body));
    await commit(t, (d) => {
      entity(d, t, used, 'Gadget', 'Widget');
    });
    const refused = await t.post(`/v1/deltas/${deleteUsed.body.delta_id}/apply`, {});
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.deepEqual(
      refused.body.error.details.findings.map((f: { evidence: { rule: string } }) => f.evidence.rule),
      ['shape_in_use'],
    );
    assert.equal((await t.post(`/v1/deltas/${deleteUnused.body.delta_id}/apply`, {})).status, 200);
  });
});
