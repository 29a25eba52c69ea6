// A node's vector (384 numbers) stays in the graph: the statements that read a memory or a graph node for an
// answer never send it to the service, which would only decode it to drop it (docs/embeddings.md, "Vectors
// in the graph"). Run against the real statements in a real Neo4j, on a memory given a vector.
import assert from 'node:assert/strict';
import { cypher } from '../../src/db/cypher.js';
import { toPlain } from '../../src/db/values.js';
import { call, newTenant } from '../support/api.js';
import { useRawDriver } from '../support/harness.js';

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
    await driver().executeQuery('MATCH (m:Memory {id: $id}) SET m.embedding = $vector', { id, vector });
    const now = new Date().toISOString();
    const graph = { project_id: t.projectId, include_pending: false, valid_at: now };
    const reads: [string, Record<string, unknown>][] = [
      ['memories/get', { id, project_id: t.projectId }],
      ['memories/answered', { ids: [id], known: [], project_id: t.projectId }],
      ['graph/node', { ...graph, id }],
      [
        'graph/nodes',
        { ...graph, labels: ['Knowledge', 'Memory'], property: null, value: null, after_id: '', limit: 5 },
      ],
    ];
    // The vector is there to be left out: a statement that reads every property sends it.
    const whole = await driver().executeQuery('MATCH (m:Memory {id: $id}) RETURN properties(m) AS props', { id });
    assert.ok(holdsVector(toPlain(whole.records[0]!.get('props'))));
    for (const [name, params] of reads) {
      const { records } = await driver().executeQuery(cypher(name), params);
      const rows = records.map((rec) => toPlain(rec.toObject()));
      assert.ok(JSON.stringify(rows).includes(id), `${name} did not read the memory`);
      assert.equal(holdsVector(rows), false, `${name} sent the vector`);
    }
  });
});
