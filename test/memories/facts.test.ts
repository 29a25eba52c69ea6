import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { newTenant, type Reply, type Tenant } from '../support/api.js';
import { BUILTIN_SHAPE_IDS } from '../../src/shapes/types.js';
import { graph, planOperators } from '../preflight/support.js';
import { del, fact, memory, patch } from '../governance/support.js';

/** The fact edges of the project as the Cypher view shows them: "Subject-TYPE->Object" with their properties. */
async function factEdges(
  t: Tenant,
): Promise<{ text: string; memory_id: string; pending: boolean; from: unknown; to: unknown }[]> {
  const rows = await graph().read((tx) =>
    tx.runText(
      'MATCH (s:Entity)-[r]->(o:Entity) WHERE r.project_id = $p AND r.memory_id IS NOT NULL ' +
        'RETURN s.name + "-" + type(r) + "->" + o.name AS text, r.memory_id AS memory_id, ' +
        'r.pending IS NOT NULL AS pending, toString(r.valid_from) AS from, toString(r.valid_to) AS to ORDER BY text',
      { p: t.projectId },
    ),
  );
  return rows as unknown as { text: string; memory_id: string; pending: boolean; from: unknown; to: unknown }[];
}

/** The type a memory records (its predicate_type), read in the graph. */
async function predicateType(id: string): Promise<unknown> {
  const rows = await graph().read((tx) =>
    tx.runText('MATCH (m:Memory {id: $id}) RETURN m.predicate_type AS type', { id }),
  );
  return rows[0]?.type;
}

/** The memory records this type, and the project's fact edges are exactly these. */
async function assertTyped(t: Tenant, id: string, type: string, edges: string[]): Promise<void> {
  assert.equal(await predicateType(id), type);
  assert.deepEqual(
    (await factEdges(t)).map((e) => e.text),
    edges,
  );
}

describe('facts as edges', function () {
  this.timeout(300_000);

  it('a chain of three fact memories is walked by context hops 1 and 2 (two links away only at hops 2)', async () => {
    const t = await newTenant(0);
    await memory(t, fact('Alpha', 'works with', 'Bravo'));
    await memory(t, fact('Bravo', 'works with', 'Charlie'));
    await memory(t, fact('Charlie', 'works with', 'Delta'));
    const walked = async (hops: number): Promise<string[]> => {
      const reply = await t.post('/v1/context/compile', {
        slice: { subject: { name: 'Alpha' }, planes: ['entity'], hops },
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const section = reply.body.sections.find((s: { plane: string }) => s.plane === 'entity');
      return section.items
        .filter((i: { reason: string }) => /subject/.test(i.reason))
        .map((i: { name: string }) => i.name)
        .sort();
    };
    assert.deepEqual(await walked(0), ['Alpha']);
    assert.deepEqual(await walked(1), ['Alpha', 'Bravo']);
    assert.deepEqual(await walked(2), ['Alpha', 'Bravo', 'Charlie']);
    // The graph read's neighbourhood sees the edge too.
    const edges = await factEdges(t);
    assert.deepEqual(
      edges.map((e) => e.text),
      ['Alpha-WORKS_WITH->Bravo', 'Bravo-WORKS_WITH->Charlie', 'Charlie-WORKS_WITH->Delta'],
    );
    const alphaId = (
      await graph().read((tx) =>
        tx.runText('MATCH (e:Entity {project_id: $p, name: "Alpha"}) RETURN e.id AS id', { p: t.projectId }),
      )
    )[0]!.id as string;
    const around = await t.get(`/v1/graph/nodes/${alphaId}?depth=1`);
    assert.equal(around.status, 200);
    assert.ok(
      around.body.edges.some(
        (e: { type: string; target_name: string }) => e.type === 'WORKS_WITH' && e.target_name === 'Bravo',
      ),
      JSON.stringify(around.body.edges),
    );
  });

  it('a staged fact stages its edge in the pending subgraph of the same delta; apply commits it, revert takes it away', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { ...fact('Ada', 'works for', 'Acme'), apply: false });
    assert.equal(staged.status, 201, JSON.stringify(staged.body));
    const [pending] = await factEdges(t);
    assert.equal(pending?.text, 'Ada-WORKS_FOR->Acme');
    assert.equal(pending?.pending, true);
    assert.equal(pending?.memory_id, staged.body.id);
    const [change] = await graph().read((tx) =>
      tx.runText(
        'MATCH (:Delta {id: $d})-[:HAS_CHANGE]->(c:Change {op: "create_relationship", type: "WORKS_FOR"})-[:FROM]->(s), (c)-[:TO]->(o) ' +
          'RETURN s.name AS s, o.name AS o',
        { d: staged.body.delta_id },
      ),
    );
    assert.deepEqual(change, { s: 'Ada', o: 'Acme' });
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})).status, 200);
    assert.equal((await factEdges(t))[0]?.pending, false);
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/revert`, {})).status, 200);
    assert.deepEqual(await factEdges(t), []);
  });

  it('a changed predicate or object replaces the edge; delete removes it and revert of the delete restores it', async () => {
    const t = await newTenant(0);
    const m = await memory(t, fact('Ada', 'lives in', 'London'));
    const moved = await patch(t, `/v1/memories/${m.id}`, { object: 'Paris', content: 'Ada lives in Paris.' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(
      (await factEdges(t)).map((e) => e.text),
      ['Ada-LIVES_IN->Paris'],
    );
    const renamed = await patch(t, `/v1/memories/${m.id}`, { predicate: 'resides in' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.deepEqual(
      (await factEdges(t)).map((e) => e.text),
      ['Ada-RESIDES_IN->Paris'],
    );
    const cleared = await patch(t, `/v1/memories/${m.id}`, { object: null });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.deepEqual(await factEdges(t), []);
    assert.equal((await t.post(`/v1/deltas/${cleared.body.delta_id}/revert`, {})).status, 200);
    assert.deepEqual(
      (await factEdges(t)).map((e) => e.text),
      ['Ada-RESIDES_IN->Paris'],
    );
    const gone = await del(t, `/v1/memories/${m.id}`);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.deepEqual(await factEdges(t), []);
    assert.equal((await t.post(`/v1/deltas/${gone.body.delta_id}/revert`, {})).status, 200);
    const back = await factEdges(t);
    assert.deepEqual(
      back.map((e) => [e.text, e.memory_id]),
      [['Ada-RESIDES_IN->Paris', m.id]],
    );
  });

  it('a predicate names its type in upper snake case; an engine link name gets _REF; one with no letter first gets no edge', async () => {
    const t = await newTenant(0);
    await memory(t, fact('Ada', 'Is  co-founder of!', 'Acme'));
    await memory(t, fact('Ada', 'has subject', 'Maths'));
    await memory(t, fact('Ada', '42 things about', 'Numbers'));
    assert.deepEqual(
      (await factEdges(t)).map((e) => e.text),
      ['Ada-HAS_SUBJECT_REF->Maths', 'Ada-IS_CO_FOUNDER_OF->Acme'],
    );
  });

  it('a predicate corrected to words of a declared type is typed again; a close keeps the recorded type', async () => {
    const t = await newTenant(0);
    const m = await memory(t, fact('Bo', 'likes', 'Acme'));
    assert.equal(await predicateType(m.id), 'LIKES');
    const hired = await patch(t, `/v1/memories/${m.id}`, { predicate: 'was hired by' });
    assert.equal(hired.status, 200, JSON.stringify(hired.body));
    await assertTyped(t, m.id, 'WORKS_FOR', ['Bo-WORKS_FOR->Acme']);
    const closed = await t.post(`/v1/memories/${m.id}/close`, { valid_to: '2025-01-01T00:00:00Z' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.deepEqual(
      (await factEdges(t)).map((e) => [e.text, e.to]),
      [['Bo-WORKS_FOR->Acme', '2025-01-01T00:00:00Z']],
    );
  });

  it('a fact written before a shape declared its words keeps its type; its predicate PATCHed as it is retypes it, and a revert restores it', async () => {
    const t = await newTenant(0);
    const m = await memory(t, fact('Cy', 'consults for', 'Acme'));
    assert.equal(await predicateType(m.id), 'CONSULTS_FOR');
    const shape = await t.post('/v1/shapes', {
      name: 'advisory',
      entity_types: [{ label: 'Advisor', properties: [{ name: 'name', type: 'string' }] }],
      relationship_types: [{ type: 'ADVISES', from: 'Entity', to: 'Entity', patterns: ['consults for'] }],
      orphans_allowed: ['Advisor'],
    });
    assert.equal(shape.status, 201, JSON.stringify(shape.body));
    // A new pattern retypes no older fact by itself.
    await assertTyped(t, m.id, 'CONSULTS_FOR', ['Cy-CONSULTS_FOR->Acme']);
    const retyped = await patch(t, `/v1/memories/${m.id}`, { predicate: 'consults for' });
    assert.equal(retyped.status, 200, JSON.stringify(retyped.body));
    await assertTyped(t, m.id, 'ADVISES', ['Cy-ADVISES->Acme']);
    const read = (await t.get(`/v1/memories/${m.id}`)).body.memory;
    assert.equal(read.properties.predicate, 'consults for');
    const reverted = await t.post(`/v1/deltas/${retyped.body.delta_id}/revert`, { reason: 'keep the old type' });
    assert.equal(reverted.status, 200, JSON.stringify(reverted.body));
    await assertTyped(t, m.id, 'CONSULTS_FOR', ['Cy-CONSULTS_FOR->Acme']);
  });

  it('a memory without subject, predicate and object all three stands as no edge', async () => {
    const t = await newTenant(0);
    await memory(t, { content: 'Ada is curious.', kind: 'fact', subject: 'Ada', predicate: 'is' });
    await memory(t, { content: 'Ada and Acme.', kind: 'fact', subject: 'Ada', object: 'Acme' });
    assert.deepEqual(await factEdges(t), []);
  });

  it('valid time: as_of reads before and after a supersede return the old and the new fact; revert restores the old', async () => {
    const t = await newTenant(0);
    const old = await memory(t, fact('Alice', 'works for', 'Acme', { valid_from: '2019-01-01T00:00:00Z' }));
    const sup = await t.post(`/v1/memories/${old.id}/supersede`, {
      by: fact('Alice', 'works for', 'Globex', { valid_from: '2024-03-01T00:00:00Z' }),
      reason: 'changed employer',
    });
    assert.equal(sup.status, 201, JSON.stringify(sup.body));
    const read = (await t.get(`/v1/memories/${old.id}`)).body.memory;
    assert.equal(read.properties.valid_from, '2019-01-01T00:00:00.000Z');
    assert.equal(read.properties.valid_to, '2024-03-01T00:00:00.000Z');
    const search = async (asOf?: string): Promise<string[]> => {
      const reply = await t.post('/v1/memories/search', { query: 'Alice works', ...(asOf ? { as_of: asOf } : {}) });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.nodes.map((n: { properties: { object: string } }) => n.properties.object).sort();
    };
    assert.deepEqual(await search('2020-06-01T00:00:00Z'), ['Acme']);
    assert.deepEqual(await search('2025-01-01T00:00:00Z'), ['Globex']);
    assert.deepEqual(await search(), ['Globex']);
    assert.deepEqual(await search('2010-01-01T00:00:00Z'), []);
    const everywhere = async (asOf?: string): Promise<string[]> => {
      const reply = await t.post('/v1/search', {
        query: 'Alice works',
        planes: ['memory'],
        ...(asOf ? { as_of: asOf } : {}),
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.nodes.map((n: { properties: { object: string } }) => n.properties.object).sort();
    };
    assert.deepEqual(await everywhere('2020-06-01T00:00:00Z'), ['Acme']);
    assert.deepEqual(await everywhere(), ['Globex']);
    /** The WORKS_FOR targets among a read's edges. */
    const employersIn = (reply: Reply<{ edges: { type: string; target_name: string }[] }>): string[] => {
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.edges.filter((e) => e.type === 'WORKS_FOR').map((e) => e.target_name);
    };
    // /v1/search's edges around a result are those valid then too (read with the word hits: around_found).
    const employersFound = async (asOf?: string): Promise<string[]> =>
      employersIn(
        await t.post('/v1/search', {
          query: 'Alice',
          planes: ['entity'],
          mode: 'lexical',
          ...(asOf ? { as_of: asOf } : {}),
        }),
      );
    assert.deepEqual(await employersFound('2020-06-01T00:00:00Z'), ['Acme']);
    assert.deepEqual(await employersFound(), ['Globex']);
    // The edges carry the same validity; the neighbourhood as of a moment walks the edge valid then.
    assert.deepEqual(
      (await factEdges(t)).map((e) => [e.text, e.from, e.to]),
      [
        ['Alice-WORKS_FOR->Acme', '2019-01-01T00:00:00Z', '2024-03-01T00:00:00Z'],
        ['Alice-WORKS_FOR->Globex', '2024-03-01T00:00:00Z', null],
      ],
    );
    const alice = (
      await graph().read((tx) =>
        tx.runText('MATCH (e:Entity {project_id: $p, name: "Alice"}) RETURN e.id AS id', { p: t.projectId }),
      )
    )[0]!.id as string;
    const employers = async (asOf?: string): Promise<string[]> =>
      employersIn(await t.get(`/v1/graph/nodes/${alice}${asOf ? `?as_of=${asOf}` : ''}`));
    assert.deepEqual(await employers('2020-06-01T00:00:00Z'), ['Acme']);
    assert.deepEqual(await employers(), ['Globex']);
    const edges = await t.get(`/v1/graph/edges?type=WORKS_FOR&as_of=2020-06-01T00:00:00Z`);
    assert.deepEqual(
      edges.body.edges.map((e: { target_name: string }) => e.target_name),
      ['Acme'],
    );
    const compiled = async (asOf?: string): Promise<string[]> => {
      const reply = await t.post('/v1/context/compile', {
        slice: { subject: { name: 'Alice' }, planes: ['entity'], hops: 1 },
        ...(asOf ? { as_of: asOf } : {}),
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const section = reply.body.sections.find((x: { plane: string }) => x.plane === 'entity');
      return section.items
        .filter((i: { reason: string }) => /from the subject/.test(i.reason))
        .map((i: { name: string }) => i.name)
        .sort();
    };
    assert.deepEqual(await compiled(), ['Globex']);
    // Revert of the supersede: the old fact is open again, its edge too.
    assert.equal((await t.post(`/v1/deltas/${sup.body.delta_id}/revert`, {})).status, 200);
    assert.equal((await t.get(`/v1/memories/${old.id}`)).body.memory.properties.valid_to, null);
    assert.deepEqual(
      (await factEdges(t)).map((e) => [e.text, e.to]),
      [['Alice-WORKS_FOR->Acme', null]],
    );
  });

  it('close ends a fact at valid_to (default now) and its edge with it; revert reopens; bad closes are 400s', async () => {
    const t = await newTenant(0);
    const m = await memory(t, fact('Bob', 'lives in', 'Oslo', { valid_from: '2020-01-01T00:00:00Z' }));
    const early = await t.post(`/v1/memories/${m.id}/close`, { valid_to: '2019-01-01T00:00:00Z' });
    assert.equal(early.status, 400);
    assert.equal(early.body.error.details.fields[0].field, '/body/valid_to');
    const closed = await t.post(`/v1/memories/${m.id}/close`, { valid_to: '2023-05-01T00:00:00Z', reason: 'moved' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.equal((await t.get(`/v1/memories/${m.id}`)).body.memory.properties.valid_to, '2023-05-01T00:00:00.000Z');
    assert.deepEqual(
      (await factEdges(t)).map((e) => [e.text, e.to]),
      [['Bob-LIVES_IN->Oslo', '2023-05-01T00:00:00Z']],
    );
    const again = await t.post(`/v1/memories/${m.id}/close`, { valid_to: '2024-01-01T00:00:00Z' });
    assert.equal(again.status, 400, JSON.stringify(again.body));
    assert.equal((await t.post(`/v1/deltas/${closed.body.delta_id}/revert`, {})).status, 200);
    assert.equal((await t.get(`/v1/memories/${m.id}`)).body.memory.properties.valid_to, null);
    const note = await memory(t, { content: 'Bob seemed tired.', kind: 'observation' });
    const notTimed = await t.post(`/v1/memories/${note.id}/close`, {});
    assert.equal(notTimed.status, 400);
  });

  it('valid time is settable on create and by PATCH (the edge follows); only on facts, decisions and preferences', async () => {
    const t = await newTenant(0);
    const bad = await t.post('/v1/memories', {
      content: 'Seen at noon.',
      kind: 'observation',
      valid_from: '2020-01-01T00:00:00Z',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.fields[0].field, '/body/valid_from');
    // No kind is an observation: refused by the published schema's rule, one memory or in a batch.
    const untyped = await t.post('/v1/memories', { content: 'Seen at one.', valid_to: '2020-01-01T00:00:00Z' });
    assert.equal(untyped.status, 400);
    assert.equal(untyped.body.error.details.fields[0].field, '/body/valid_to');
    const batch = await t.post('/v1/memories', {
      memories: [fact('Cy', 'speaks', 'Breton'), { content: 'Seen at two.', valid_from: '2020-01-01T00:00:00Z' }],
    });
    assert.equal(batch.status, 400);
    assert.deepEqual(
      batch.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/body/memories/1/valid_from'],
    );
    const backwards = await t.post('/v1/memories', {
      ...fact('Cy', 'speaks', 'Welsh'),
      valid_from: '2021-01-01T00:00:00Z',
      valid_to: '2020-01-01T00:00:00Z',
    });
    assert.equal(backwards.status, 400);
    assert.equal(backwards.body.error.details.fields[0].field, '/body/valid_to');
    const m = await memory(t, fact('Cy', 'speaks', 'Welsh'));
    const dated = await patch(t, `/v1/memories/${m.id}`, { valid_from: '2001-02-03T04:05:06Z' });
    assert.equal(dated.status, 200, JSON.stringify(dated.body));
    assert.deepEqual(
      (await factEdges(t)).map((e) => [e.text, e.from, e.memory_id]),
      [['Cy-SPEAKS->Welsh', '2001-02-03T04:05:06Z', m.id]],
    );
    const cleared = await patch(t, `/v1/memories/${m.id}`, { valid_from: null });
    assert.equal(cleared.status, 200);
    assert.deepEqual(
      (await factEdges(t)).map((e) => [e.text, e.from]),
      [['Cy-SPEAKS->Welsh', null]],
    );
  });

  it('as_of that is no readable instant is a 400 naming the field on every read', async () => {
    const t = await newTenant(0);
    for (const [reply, field] of [
      [await t.get('/v1/graph/nodes?as_of=2016-12-31T23:59:60Z'), '/query/as_of'],
      [await t.get('/v1/graph/edges?as_of=yesterday'), '/query/as_of'],
      [await t.post('/v1/memories/search', { query: 'x', as_of: '2016-12-31T23:59:60Z' }), '/body/as_of'],
      [await t.post('/v1/search', { query: 'x', as_of: 'not a date' }), '/body/as_of'],
    ] as const) {
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.equal(reply.body.error.details.fields[0].field, field);
    }
  });

  it('a project whose facts use 200 relationship types refuses a fact naming a 201st new one; its own types stay open', async () => {
    const t = await newTenant(0);
    // Types nobody else uses, so the database knows none of them and the project's own facts are counted.
    const tag = Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
    // 200 facts written as the graph holds them, without edges, so the database learns no new type.
    await graph().write((tx) =>
      tx.runText(
        `UNWIND range(1, 200) AS i
         CREATE (:Knowledge:Memory {id: $p + '-cap-' + i, project_id: $p, kind: 'fact', content: 'c',
                                    subject_name: 'Ada', predicate: 'cap ' + $tag + ' ' + i, object_name: 'Acme',
                                    predicate_type: 'CAP_' + toUpper($tag) + '_' + i, created_at: datetime()})`,
        { p: t.projectId, tag },
      ),
    );
    const refused = await t.post('/v1/memories', fact('Ada', `cap ${tag} new`, 'Acme'));
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(refused.body.error.message, /already use 200 distinct types, at most 200/);
    assert.equal(refused.body.error.details.fields[0].field, '/body/predicate');
    assert.equal(await predicateType(`${t.projectId}-cap-1`), `CAP_${tag.toUpperCase()}_1`);
    await memory(t, fact('Ada', `cap ${tag} 7`, 'Bravo'));
    assert.deepEqual(
      (await factEdges(t)).map((e) => e.text),
      [`Ada-CAP_${tag.toUpperCase()}_7->Bravo`],
    );
  });

  it("a fact's declared-type read seeks the built-in shapes by id and the project's by its index: it scans no label", async () => {
    const text = readFileSync('cypher/shapes/declared_relationship_types.cypher', 'utf8');
    const operators = await planOperators(text, { project_id: 'none', builtin_ids: [...BUILTIN_SHAPE_IDS] });
    assert.deepEqual(
      operators.filter((o) => /Scan/.test(o)),
      [],
      operators.join(', '),
    );
  });
});
