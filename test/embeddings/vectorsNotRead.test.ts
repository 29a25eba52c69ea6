// A node's vector (384 numbers) stays in the graph: the statements that read a memory or a graph node for an
// answer never send it to the service, which would only decode it to drop it (docs/embeddings.md, "Vectors
// in the graph"). Run against the real statements in a real Neo4j, on a memory given a vector.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { cypher } from '../../src/db/cypher.js';
import { toPlain } from '../../src/db/values.js';
import { fullTextParams } from '../../src/db/fullText.js';
import { luceneQuery } from '../../src/db/tenant.js';
import { call, newTenant } from '../support/api.js';
import { useRawDriver } from '../support/harness.js';
import { NO_LINKS } from '../../src/memories/recall.js';

/** Whether any value in a row, at any depth, is a list of numbers as long as a vector. */
function holdsVector(value: unknown): boolean {
  if (Array.isArray(value))
    return (value.length >= 384 && value.every((v) => typeof v === 'number')) || value.some(holdsVector);
  if (value && typeof value === 'object') return Object.values(value).some(holdsVector);
  return false;
}

describe("a node's vector is not read for an answer", function () {
  this.timeout(60_000);
  const driver = useRawDriver();

  it('a memory read, a recall answer and the graph reads of a node leave its vector in the graph', async () => {
    const t = await newTenant();
    const r = await call(
      'POST',
      '/v1/memories',
      { content: 'Ada Lovelace wrote the first published program.' },
      { key: t.key },
    );
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const id = (r.body as { memories: { id: string }[] }).memories[0]!.id;
    const vector = Array.from({ length: 384 }, (_, i) => Math.sin(i + 1));
    // A neighbour with a vector of its own, committed, for the neighbourhood read.
    const other = crypto.randomUUID();
    await driver().executeQuery(
      `MATCH (m:Memory {id: $id}) SET m.embedding = $vector, m.context_embedding = $vector
       CREATE (m)-[:MENTIONS]->(:Knowledge:Entity {id: $other, project_id: m.project_id, name: 'Ada', embedding: $vector,
                                                  type: 'Person', bridge_id: 'crm', external_id: 'P-1'})`,
      { id, other, vector },
    );
    const now = new Date().toISOString();
    const graph = { project_id: t.projectId, include_pending: false, valid_at: now };
    // Each read, and the node it must answer.
    const reads: [string, Record<string, unknown>, string][] = [
      ['memories/get', { id, project_id: t.projectId, standing: null }, id],
      // A lexical search in rank order reads its hits whole (src/memories/recall.ts); /v1/search's word
      // statement reads them whole with their edges ($around).
      [
        'memories/search',
        {
          project_id: t.projectId,
          now,
          valid_at: now,
          kinds: null,
          episode: null,
          ...NO_LINKS,
          limit: 5,
          candidates: 5,
          whole: true,
          around: true,
          per_node: 5,
          standing: null,
          ...fullTextParams(luceneQuery('Lovelace program', t.projectId)!, t.projectId),
        },
        id,
      ],
      ['memories/answered', { ids: [id], known: [], project_id: t.projectId }, id],
      [
        'search/answered',
        { ids: [id], results: [id], whole: [id], project_id: t.projectId, per_node: 5, valid_at: now },
        id,
      ],
      ['graph/node', { ...graph, id }, id],
      // The delta that created it, as the review console reads its changes.
      [
        'deltas/changes',
        { delta_id: (r.body as { delta_id: string }).delta_id, project_id: t.projectId, limit: 5 },
        id,
      ],
      ['graph/neighbourhood', { ...graph, id, depth: 1, limit: 5 }, other],
      // A bridge's sync compares the entities it mapped with the source's fields.
      [
        'bridges/known_entities',
        { refs: [{ label: 'Person', external_id: 'P-1' }], bridge_id: 'crm', project_id: t.projectId, types: [] },
        other,
      ],
      ['graph/nodes', { ...graph, labels: ['Knowledge'], property: null, value: null, after_id: '', limit: 5 }, id],
    ];
    // The vector is there to be left out: a statement that reads every property sends it.
    const whole = await driver().executeQuery('MATCH (m:Memory {id: $id}) RETURN properties(m) AS props', { id });
    assert.ok(holdsVector(toPlain(whole.records[0]!.get('props'))));
    for (const [name, params, answers] of reads) {
      const { records } = await driver().executeQuery(cypher(name), params);
      const rows = records.map((rec) => toPlain(rec.toObject()));
      assert.ok(JSON.stringify(rows).includes(answers), `${name} did not read the node`);
      assert.equal(holdsVector(rows), false, `${name} sent the vector`);
    }
  });
});
