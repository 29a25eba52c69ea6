import assert from 'node:assert/strict';
import { call, newTenant, type Tenant } from '../support/api.js';
import { fact } from '../governance/support.js';
import { addToDelta, commit, createTestShape, entity, findingsOf, graph, rules, stage } from './support.js';

const past = '2020-01-01T00:00:00Z';
const future = '2099-01-01T00:00:00Z';

async function memory(t: Tenant, body: Record<string, unknown>): Promise<{ id: string; delta_id: string }> {
  const reply = await t.post('/v1/memories', body);
  assert.ok(reply.status === 201, JSON.stringify(reply.body));
  return { id: reply.body.id ?? reply.body.memories[0].id, delta_id: reply.body.delta_id };
}

describe('preflight check: duplicates', () => {
  it('a staged memory that repeats a committed one (case, spacing, final stop aside) is a warning naming both', async () => {
    const t = await newTenant(0);
    const old = await memory(t, { content: 'Ada prefers green tea.' });
    const staged = await memory(t, { content: '  ada PREFERS   green tea', apply: false });
    const found = await findingsOf(t, staged.delta_id, 'duplicates');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'warning');
    assert.equal(found[0]!.evidence.rule, 'same_content');
    assert.equal(found[0]!.evidence.committed_node_id, old.id);
    assert.deepEqual(found[0]!.node_ids, [old.id, staged.id].sort());
  });

  it('different content, or the same content in another project, is no duplicate', async () => {
    const t = await newTenant(0);
    const other = await newTenant(0);
    await memory(t, { content: 'Ada prefers green tea.' });
    await memory(other, { content: 'Ada prefers black coffee.' });
    const staged = await memory(t, { content: 'Ada prefers black coffee.', apply: false });
    assert.deepEqual(await findingsOf(t, staged.delta_id, 'duplicates'), []);
  });

  it('a memory that normalizes to nothing, or holds a backslash and an unbalanced quote (Lucene syntax), is audited without failing', async () => {
    const t = await newTenant(0);
    await memory(t, { content: 'He wrote C:\\ and "' });
    const dot = await memory(t, { content: '.', apply: false });
    assert.deepEqual(await findingsOf(t, dot.delta_id, 'duplicates'), []);
    const quoted = await memory(t, { content: 'he wrote  c:\\ AND "', apply: false });
    assert.deepEqual(rules(await findingsOf(t, quoted.delta_id, 'duplicates')), ['same_content']);
  });

  it('a staged entity whose identity a committed entity holds is an error (the apply would break the identity rule)', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let ada = '';
    await commit(t, (d) => {
      ada = entity(d, t, shape, 'Person', 'Ada Lovelace');
    });
    let copy = '';
    const deltaId = await stage(t, (d) => {
      copy = entity(d, t, shape, 'Person', 'the ada  lovelace');
      d.createRelationship(copy, 'KNOWS', ada);
    });
    const found = await findingsOf(t, deltaId, 'duplicates');
    assert.deepEqual(rules(found), ['same_identity']);
    assert.equal(found[0]!.severity, 'error');
    assert.equal(found[0]!.evidence.committed_node_id, ada);
    assert.equal(found[0]!.evidence.pending_node_id, copy);
  });

  it('an entity of another type is only a same-name warning; one replacing a committed entity the delta deletes is no duplicate', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let ada = '';
    await commit(t, (d) => {
      ada = entity(d, t, shape, 'Person', 'Ada Lovelace');
    });
    const deltaId = await stage(t, (d) => {
      const team = entity(d, t, shape, 'Team', 'Ada Lovelace');
      d.createRelationship(entity(d, t, shape, 'Person', 'Grace Hopper'), 'MEMBER_OF', team);
    });
    assert.deepEqual(rules(await findingsOf(t, deltaId, 'duplicates')), ['same_name_other_type']);
    const replacing = await stage(t, (d) => {
      d.deleteNode(ada);
      entity(d, t, shape, 'Person', 'Ada Lovelace');
    });
    assert.deepEqual(await findingsOf(t, replacing, 'duplicates'), []);
  });
});

describe('preflight check: shape_properties', () => {
  it('reports a missing required property, a wrong type, a value outside its enum and a type the shape lacks', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let nameless = '',
      wrong = '',
      robot = '';
    const deltaId = await stage(t, (d) => {
      const team = entity(d, t, shape, 'Team', 'Core');
      nameless = entity(d, t, shape, 'Person', null, { role: 'engineer' });
      wrong = entity(d, t, shape, 'Person', 'Bob', { age: 'forty', role: 'ceo', born: '1980-02-03' });
      robot = entity(d, t, shape, 'Robot', 'R2');
      for (const p of [nameless, wrong]) d.createRelationship(p, 'MEMBER_OF', team);
      d.createRelationship(robot, 'KNOWS', wrong);
    });
    const found = await findingsOf(t, deltaId, 'shape_properties');
    const byRule = Object.fromEntries(found.map((f) => [`${f.evidence.rule}:${f.node_ids[0]}`, f]));
    assert.deepEqual(
      Object.keys(byRule).sort(),
      [
        `missing_required:${nameless}`,
        `outside_enum:${wrong}`,
        `undefined_type:${robot}`,
        `wrong_type:${wrong}`,
      ].sort(),
    );
    assert.ok(found.every((f) => f.severity === 'error'));
    assert.deepEqual(byRule[`wrong_type:${wrong}`]!.evidence, {
      rule: 'wrong_type',
      shape_id: shape,
      entity_label: 'Person',
      property: 'age',
      expected: 'integer',
      actual: 'STRING',
    });
    assert.deepEqual(byRule[`outside_enum:${wrong}`]!.evidence.expected, ['engineer', 'manager']);
    assert.equal(byRule[`outside_enum:${wrong}`]!.evidence.actual, 'ceo');
    assert.equal(byRule[`missing_required:${nameless}`]!.evidence.property, 'name');
  });

  it('checks what an update sets on a committed node, and an unknown shape', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let ada = '';
    await commit(t, (d) => {
      ada = entity(d, t, shape, 'Person', 'Ada', { role: 'engineer' });
    });
    const deltaId = await stage(t, (d) => {
      d.updateNode(ada, { role: 'intern', name: null });
      entity(d, t, 'no-such-shape', 'Person', 'Ghost');
    });
    const found = await findingsOf(t, deltaId, 'shape_properties');
    assert.deepEqual(rules(found), ['missing_required', 'outside_enum', 'unknown_shape']);
  });

  it('a well-formed node (integer from JSON, ISO date string, enum value) and a later valid update pass', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let ada = '';
    await commit(t, (d) => {
      ada = entity(d, t, shape, 'Person', 'Ada', { role: 'intern-to-be-fixed' });
    });
    const deltaId = await stage(t, (d) => {
      d.updateNode(ada, { role: 'ceo' });
      d.updateNode(ada, { role: 'manager', age: 36 });
      const team = entity(d, t, shape, 'Team', 'Core');
      d.createRelationship(
        entity(d, t, shape, 'Person', 'Grace', { age: 42, role: 'engineer', born: '1906-12-09' }),
        'MEMBER_OF',
        team,
      );
    });
    assert.deepEqual(await findingsOf(t, deltaId, 'shape_properties'), []);
  });

  it('memories are checked against the built-in memory shape', async () => {
    const t = await newTenant(0);
    const ok = await memory(t, { content: 'A valid memory.', kind: 'fact', apply: false });
    assert.deepEqual(await findingsOf(t, ok.delta_id, 'shape_properties'), []);
    const old = await memory(t, { content: 'Kind will be broken.' });
    const deltaId = await stage(t, (d) => d.updateNode(old.id, { kind: 'rumour', scope: 7 }));
    assert.deepEqual(rules(await findingsOf(t, deltaId, 'shape_properties')), ['outside_enum', 'wrong_type']);
  });
});

describe('preflight check: shape_relationships', () => {
  it('a relationship type the shape does not allow between these labels is an error', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let team = '',
      ada = '';
    await commit(t, (d) => {
      team = entity(d, t, shape, 'Team', 'Core');
      ada = entity(d, t, shape, 'Person', 'Ada');
      d.createRelationship(ada, 'MEMBER_OF', team);
    });
    let wrongEnds = '',
      unknownType = '';
    const deltaId = await stage(t, (d) => {
      wrongEnds = d.createRelationship(ada, 'KNOWS', team);
      unknownType = d.createRelationship(ada, 'ADMIRES', team);
    });
    const found = await findingsOf(t, deltaId, 'shape_relationships');
    assert.deepEqual(rules(found), ['relationship_not_allowed', 'relationship_not_allowed']);
    const knows = found.find((f) => f.relationship_ids[0] === wrongEnds)!;
    assert.deepEqual(knows.evidence.expected, ['Person->Person']);
    assert.equal(knows.evidence.actual, 'Person->Team');
    assert.ok(
      found.some((f) => f.relationship_ids[0] === unknownType && (f.evidence.expected as unknown[]).length === 0),
    );
  });

  it('exceeding many_to_one (outgoing) and one_to_one (incoming) cardinality after the merge is an error', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let core = '',
      ada = '',
      grace = '',
      old = '';
    await commit(t, (d) => {
      core = entity(d, t, shape, 'Team', 'Core');
      ada = entity(d, t, shape, 'Person', 'Ada');
      grace = entity(d, t, shape, 'Person', 'Grace');
      old = d.createRelationship(ada, 'MEMBER_OF', core);
      d.createRelationship(grace, 'LEADS', core);
    });
    let second = '',
      lead = '';
    const deltaId = await stage(t, (d) => {
      second = d.createRelationship(ada, 'MEMBER_OF', entity(d, t, shape, 'Team', 'Tools'));
      lead = d.createRelationship(ada, 'LEADS', core);
    });
    const found = await findingsOf(t, deltaId, 'shape_relationships');
    assert.equal(found.length, 2, JSON.stringify(found));
    const member = found.find((f) => f.evidence.relationship_type === 'MEMBER_OF')!;
    assert.deepEqual(member.node_ids, [ada]);
    assert.deepEqual(member.relationship_ids, [old, second].sort());
    assert.equal(member.evidence.actual, 2);
    const leads = found.find((f) => f.evidence.relationship_type === 'LEADS')!;
    assert.deepEqual(leads.node_ids, [core]);
    assert.equal(leads.evidence.cardinality, 'one_to_one');
    assert.ok(leads.relationship_ids.includes(lead));
  });

  it('a first membership, or one replacing a team the delta deletes, is within cardinality', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let core = '',
      ada = '';
    await commit(t, (d) => {
      core = entity(d, t, shape, 'Team', 'Core');
      ada = entity(d, t, shape, 'Person', 'Ada');
      d.createRelationship(ada, 'MEMBER_OF', core);
    });
    const deltaId = await stage(t, (d) => {
      d.deleteNode(core);
      d.createRelationship(ada, 'MEMBER_OF', entity(d, t, shape, 'Team', 'Tools'));
      d.createRelationship(entity(d, t, shape, 'Person', 'Grace'), 'MEMBER_OF', entity(d, t, shape, 'Team', 'Ops'));
    });
    assert.deepEqual(await findingsOf(t, deltaId, 'shape_relationships'), []);
  });
});

describe('preflight check: dangling', () => {
  it('a relationship to a node the same delta deletes is an error', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let core = '',
      rel = '';
    await commit(t, (d) => {
      core = entity(d, t, shape, 'Team', 'Core');
    });
    const deltaId = await stage(t, (d) => {
      rel = d.createRelationship(entity(d, t, shape, 'Person', 'Ada'), 'MEMBER_OF', core);
      d.deleteNode(core);
    });
    const found = await findingsOf(t, deltaId, 'dangling');
    assert.deepEqual(rules(found), ['endpoint_deleted']);
    assert.equal(found[0]!.severity, 'error');
    assert.deepEqual(found[0]!.relationship_ids, [rel]);
    assert.equal(found[0]!.evidence.node_id, core);
    assert.equal(found[0]!.evidence.missing_end, 'to');
  });

  it('a relationship or update whose node another delta deleted since staging is an error', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let core = '',
      ada = '';
    await commit(t, (d) => {
      core = entity(d, t, shape, 'Team', 'Core');
      ada = entity(d, t, shape, 'Person', 'Ada');
    });
    const deltaId = await stage(t, (d) => {
      d.createRelationship(entity(d, t, shape, 'Person', 'Grace'), 'MEMBER_OF', core);
      d.updateNode(ada, { role: 'manager' });
    });
    assert.deepEqual(await findingsOf(t, deltaId, 'dangling'), []);
    await commit(t, (d) => {
      d.deleteNode(core);
      d.deleteNode(ada);
    });
    const found = await findingsOf(t, deltaId, 'dangling');
    assert.deepEqual(rules(found), ['endpoint_missing', 'target_missing']);
    assert.equal(found.find((f) => f.evidence.rule === 'target_missing')!.evidence.node_id, ada);
    assert.equal(found.find((f) => f.evidence.rule === 'endpoint_missing')!.evidence.missing_end, 'to');
  });
  it('a staged delete of a memory whose fact edge a correction replaced since staging is an error, and apply is refused', async () => {
    const t = await newTenant(0);
    const created = await memory(t, fact('Ada', 'works at', 'Acme'));
    const staged = await call('DELETE', `/v1/memories/${created.id}?apply=false`, undefined, { key: t.key });
    assert.equal(staged.status, 200, JSON.stringify(staged.body));
    assert.deepEqual(await findingsOf(t, staged.body.delta_id, 'dangling'), []);
    const moved = await call('PATCH', `/v1/memories/${created.id}`, { object: 'Globex' }, { key: t.key });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const found = await findingsOf(t, staged.body.delta_id, 'dangling');
    assert.deepEqual(rules(found), ['relationship_missing']);
    assert.match(found[0]!.message, /WORKS_FOR relationship .* no longer exists/);
    const applied = await call('POST', `/v1/deltas/${staged.body.delta_id}/apply`, {}, { key: t.key });
    assert.equal(applied.status, 409, JSON.stringify(applied.body));
    // The memory and its new fact edge are still there: nothing was half-applied.
    assert.equal((await t.get(`/v1/memories/${created.id}`)).status, 200);
  });
});

describe('preflight check: contradictions', () => {
  it('a new fact with the same subject and a one-at-a-time predicate but another object than a committed fact is a warning', async () => {
    const t = await newTenant(0);
    const old = await memory(t, {
      content: 'Ada works at Acme.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'works for',
      object: 'Acme',
    });
    const staged = await memory(t, {
      content: 'Ada works at Globex.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'Works for',
      object: 'Globex',
      apply: false,
    });
    const found = await findingsOf(t, staged.delta_id, 'contradictions');
    assert.deepEqual(rules(found), ['conflicting_object']);
    assert.equal(found[0]!.severity, 'warning');
    assert.equal(found[0]!.evidence.committed_node_id, old.id);
    assert.equal(found[0]!.evidence.expected, 'Acme');
    assert.equal(found[0]!.evidence.actual, 'Globex');
    assert.equal(found[0]!.evidence.predicate, 'works for');
  });

  it('a change of employer written without a kind is a fact (it states a predicate) and is caught the same way', async () => {
    const t = await newTenant(0);
    const old = await memory(t, {
      content: 'Bo works for Acme.',
      subject: 'Bo',
      predicate: 'works for',
      object: 'Acme',
    });
    assert.equal((await t.get(`/v1/memories/${old.id}`)).body.memory.properties.kind, 'fact');
    const staged = await memory(t, {
      content: 'Bo works for Globex.',
      subject: 'Bo',
      predicate: 'works for',
      object: 'Globex',
      apply: false,
    });
    const found = await findingsOf(t, staged.delta_id, 'contradictions');
    assert.deepEqual(rules(found), ['conflicting_object']);
    assert.equal(found[0]!.evidence.committed_node_id, old.id);
    // Without a predicate, a memory with no kind is still an observation.
    const note = await memory(t, { content: 'Bo seemed busy.', subject: 'Bo' });
    assert.equal((await t.get(`/v1/memories/${note.id}`)).body.memory.properties.kind, 'observation');
  });

  it('a change of employer said in other words ("works for", then "works at") is one relation: the edge is WORKS_FOR and the audit warns', async () => {
    const t = await newTenant(0);
    const old = await memory(t, fact('Di', 'works for', 'Acme'));
    const staged = await memory(t, fact('Di', 'works at', 'Globex', { apply: false }));
    const found = await findingsOf(t, staged.delta_id, 'contradictions');
    assert.deepEqual(rules(found), ['conflicting_object']);
    assert.equal(found[0]!.evidence.committed_node_id, old.id);
    assert.match(
      found[0]!.message,
      /Di works at Globex, but committed fact .* says Di works for Acme .*, and works at \(WORKS_FOR\) holds one/,
    );
    // The memory keeps its words; the graph holds the declared type, for the edge and on the memory.
    const rows = await graph().read((tx) =>
      tx.runText(
        `MATCH (m:Memory {id: $id})-[:HAS_SUBJECT]->(s)-[r]->() WHERE r.memory_id = $id
         RETURN m.predicate AS predicate, m.predicate_type AS declared, type(r) AS type`,
        { id: staged.id },
      ),
    );
    assert.deepEqual(rows, [{ predicate: 'works at', declared: 'WORKS_FOR', type: 'WORKS_FOR' }]);
    // A predicate no shape's phrase names keeps its own type; a bare verb names a type held many at a time
    // (CREATED) but not one held one at a time (WORKS_FOR: leading a project is no change of employer).
    const typed: Record<string, string> = {};
    for (const [predicate, object] of [
      ['likes', 'Globex'],
      ['wrote', 'Ledger'],
      ['leads', 'Migration'],
    ]) {
      const written = await memory(t, fact('Di', predicate!, object!));
      const [row] = await graph().read((tx) =>
        tx.runText('MATCH (m:Memory {id: $id}) RETURN m.predicate_type AS declared', { id: written.id }),
      );
      typed[predicate!] = String(row?.declared);
    }
    assert.deepEqual(typed, { likes: 'LIKES', wrote: 'CREATED', leads: 'LEADS' });
  });

  it('the same object, another predicate, an observation, a forgotten fact or an acknowledged supersession is no contradiction', async () => {
    const t = await newTenant(0);
    const old = await memory(t, {
      content: 'Ada works at Acme.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'works at',
      object: 'Acme',
    });
    await memory(t, {
      content: 'Ada lived in Paris.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'lives in',
      object: 'Paris',
      forget_after: past,
    });
    const staged = await memory(t, {
      apply: false,
      memories: [
        { content: 'Ada is employed at Acme.', kind: 'fact', subject: 'Ada', predicate: 'works at', object: 'Acme' },
        { content: 'Ada likes Globex.', kind: 'fact', subject: 'Ada', predicate: 'likes', object: 'Globex' },
        {
          content: 'Ada was seen at Initech.',
          kind: 'observation',
          subject: 'Ada',
          predicate: 'works at',
          object: 'Initech',
        },
        { content: 'Ada lives in Rome.', kind: 'fact', subject: 'Ada', predicate: 'lives in', object: 'Rome' },
      ],
    });
    assert.deepEqual(await findingsOf(t, staged.delta_id, 'contradictions'), []);
    const moved = await memory(t, {
      content: 'Ada works at Globex.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'works at',
      object: 'Globex',
      apply: false,
    });
    assert.equal((await findingsOf(t, moved.delta_id, 'contradictions')).length, 1);
    await addToDelta(t, moved.delta_id, (d) => d.createRelationship(moved.id, 'SUPERSEDES', old.id));
    assert.deepEqual(await findingsOf(t, moved.delta_id, 'contradictions'), []);
  });

  it('a new decision about the same subject silently supersedes a committed decision, unless the delta retires the old one', async () => {
    const t = await newTenant(0);
    const old = await memory(t, { content: 'We store documents in Postgres.', kind: 'decision', subject: 'Storage' });
    const staged = await memory(t, {
      content: 'We store documents in SQLite.',
      kind: 'decision',
      subject: 'Storage',
      apply: false,
    });
    const found = await findingsOf(t, staged.delta_id, 'contradictions');
    assert.deepEqual(rules(found), ['superseded_decision']);
    assert.equal(found[0]!.evidence.committed_node_id, old.id);
    await addToDelta(t, staged.delta_id, (d) => d.updateNode(old.id, { forget_after: new Date() }));
    assert.deepEqual(await findingsOf(t, staged.delta_id, 'contradictions'), []);
    const other = await memory(t, {
      content: 'We deploy on Fridays.',
      kind: 'decision',
      subject: 'Deploys',
      apply: false,
    });
    assert.deepEqual(await findingsOf(t, other.delta_id, 'contradictions'), []);
  });
});

describe('preflight check: cycles', () => {
  async function chain(t: Tenant, shape: string, type: string): Promise<string[]> {
    const ids: string[] = [];
    await commit(t, (d) => {
      for (const name of ['wheel', 'axle', 'car']) ids.push(entity(d, t, shape, 'Part', `${name} ${type}`));
      d.createRelationship(ids[0]!, type, ids[1]!);
      d.createRelationship(ids[1]!, type, ids[2]!);
    });
    return ids;
  }

  it('a PART_OF that closes a loop, or a many_to_one self-typed relationship that does, is an error with the cycle path', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    for (const type of ['PART_OF', 'WITHIN']) {
      const [wheel, axle, car] = await chain(t, shape, type);
      let back = '';
      const deltaId = await stage(t, (d) => {
        back = d.createRelationship(car!, type, wheel!);
      });
      const found = await findingsOf(t, deltaId, 'cycles');
      assert.equal(found.length, 1, type);
      assert.equal(found[0]!.severity, 'error');
      assert.deepEqual(found[0]!.evidence.path, [car, wheel, axle, car]);
      assert.deepEqual(found[0]!.relationship_ids, [back]);
      assert.deepEqual(found[0]!.node_ids, [wheel, axle, car].sort());
    }
  });

  it('a cycle closed by two new relationships is reported once; a self-loop is a cycle', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const deltaId = await stage(t, (d) => {
      const a = entity(d, t, shape, 'Part', 'a');
      const b = entity(d, t, shape, 'Part', 'b');
      d.createRelationship(a, 'PART_OF', b);
      d.createRelationship(b, 'PART_OF', a);
      const c = entity(d, t, shape, 'Part', 'c');
      d.createRelationship(c, 'PART_OF', c);
    });
    const found = await findingsOf(t, deltaId, 'cycles');
    assert.deepEqual(found.map((f) => f.evidence.length).sort(), [1, 2]);
  });

  it('an acyclic addition, a cycle broken by a deletion in the same delta, or a cycle of a non-hierarchical type pass', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    const [wheel, axle, car] = await chain(t, shape, 'PART_OF');
    const acyclic = await stage(t, (d) => d.createRelationship(entity(d, t, shape, 'Part', 'bolt'), 'PART_OF', wheel!));
    assert.deepEqual(await findingsOf(t, acyclic, 'cycles'), []);
    const broken = await stage(t, (d) => {
      d.deleteNode(axle!);
      d.createRelationship(car!, 'PART_OF', wheel!);
    });
    assert.deepEqual(await findingsOf(t, broken, 'cycles'), []);
    let ada = '',
      bob = '';
    await commit(t, (d) => {
      ada = entity(d, t, shape, 'Person', 'Ada');
      bob = entity(d, t, shape, 'Person', 'Bob');
      d.createRelationship(ada, 'KNOWS', bob);
    });
    const mutual = await stage(t, (d) => d.createRelationship(bob, 'KNOWS', ada));
    assert.deepEqual(await findingsOf(t, mutual, 'cycles'), []);
  });
});

describe('preflight check: forgotten_references', () => {
  it('a new relationship to a memory past its forget_after is a warning; extending forget_after in the delta clears it', async () => {
    const t = await newTenant(0);
    const forgotten = await memory(t, { content: 'Old plan.', forget_after: past });
    const current = await memory(t, { content: 'Current plan.', forget_after: future });
    let link = '';
    const deltaId = await stage(t, (d) => {
      const topic = d.createNode(['Entity', 'Concept'], { name: 'Plans', normalized_name: 'plans', type: 'Concept' });
      link = d.createRelationship(forgotten.id, 'HAS_SUBJECT', topic);
      d.createRelationship(current.id, 'HAS_OBJECT', topic);
    });
    const found = await findingsOf(t, deltaId, 'forgotten_references');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'warning');
    assert.equal(found[0]!.evidence.memory_id, forgotten.id);
    assert.equal(found[0]!.evidence.end, 'from');
    assert.deepEqual(found[0]!.relationship_ids, [link]);
    await addToDelta(t, deltaId, (d) => d.updateNode(forgotten.id, { forget_after: new Date(future) }));
    assert.deepEqual(await findingsOf(t, deltaId, 'forgotten_references'), []);
  });
});

describe('preflight check: losses', () => {
  it('deleting an entity that committed memories point to is a warning counting them; renaming it is too', async () => {
    const t = await newTenant(0);
    const first = await memory(t, { content: 'Ada wrote the notes.', subject: { name: 'Ada', type: 'Person' } });
    const entityId = (await t.get(`/v1/deltas/${first.delta_id}`)).body.delta.changes.find(
      (c: { op: string; labels: string[] | null }) => c.op === 'create_node' && c.labels?.includes('Person'),
    ).node_id;
    const second = await memory(t, { content: 'Ada met Babbage.', subject: { id: entityId } });
    const removal = await stage(t, (d) => d.deleteNode(entityId));
    const found = await findingsOf(t, removal, 'losses');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'warning');
    assert.equal(found[0]!.evidence.rule, 'deletes_depended_on');
    assert.equal(found[0]!.evidence.dependent_count, 2);
    assert.deepEqual(found[0]!.evidence.relationship_types, ['HAS_SUBJECT']);
    assert.deepEqual(found[0]!.node_ids, [entityId, first.id, second.id].sort());
    const rename = await stage(t, (d) => d.updateNode(entityId, { name: 'Augusta Ada King' }));
    assert.deepEqual(rules(await findingsOf(t, rename, 'losses')), ['identity_changed']);
  });

  it('deleting a node nothing points to, deleting it with its dependents, or changing a non-identity property is no loss', async () => {
    const t = await newTenant(0);
    const first = await memory(t, { content: 'Ada wrote the notes.', subject: { name: 'Ada', type: 'Person' } });
    const entityId = (await t.get(`/v1/deltas/${first.delta_id}`)).body.delta.changes.find(
      (c: { op: string; labels: string[] | null }) => c.op === 'create_node' && c.labels?.includes('Person'),
    ).node_id;
    const lone = await memory(t, { content: 'Nobody points here.' });
    const deltaId = await stage(t, (d) => {
      d.deleteNode(lone.id);
      d.deleteNode(first.id);
      d.deleteNode(entityId);
    });
    assert.deepEqual(await findingsOf(t, deltaId, 'losses'), []);
    const retag = await stage(t, (d) => d.updateNode(entityId, { description: 'mathematician', name: 'ada' }));
    assert.deepEqual(await findingsOf(t, retag, 'losses'), []);
  });
});

describe('preflight check: orphans', () => {
  it('a new entity with no relationship whose label the shape does not allow unconnected is a warning', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let lonely = '';
    const deltaId = await stage(t, (d) => {
      lonely = entity(d, t, shape, 'Person', 'Lonely');
      entity(d, t, shape, 'Team', 'Standalone');
      d.createRelationship(entity(d, t, shape, 'Person', 'Member'), 'MEMBER_OF', entity(d, t, shape, 'Team', 'Core'));
    });
    const found = await findingsOf(t, deltaId, 'orphans');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'warning');
    assert.deepEqual(found[0]!.node_ids, [lonely]);
    assert.deepEqual(found[0]!.evidence.expected, ['Team']);
  });

  it('memories may stand alone under the memory shape', async () => {
    const t = await newTenant(0);
    const staged = await memory(t, { content: 'Unattached thought.', apply: false });
    assert.deepEqual(await findingsOf(t, staged.delta_id, 'orphans'), []);
  });
});
