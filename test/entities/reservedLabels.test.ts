import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DeltaDraft, RECORD_LABELS, RESERVED_LABELS } from '../../src/deltas/draft.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

const MEMORY_SHAPE_ID = '5e1f0000-0000-4000-8000-000000000001';

function filesUnder(dir: string, ext: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(path.join(dir, e.name), ext) : e.name.endsWith(ext) ? [path.join(dir, e.name)] : [],
    );
}

describe('reserved labels', function () {
  this.timeout(120_000);

  it('the one list names every label the service writes (Cypher CREATE/MERGE and drafts)', () => {
    const written = new Set<string>();
    for (const file of filesUnder('cypher', '.cypher')) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (line.trim().startsWith('//') || !/\b(CREATE|MERGE)\b/.test(line)) continue;
        for (const m of line.matchAll(/\(\w*((?::[A-Z]\w*)+)/g))
          for (const l of m[1]!.split(':').filter(Boolean)) written.add(l);
      }
    }
    for (const file of filesUnder('src', '.ts')) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/createNode(?:Record)?\(\['([A-Z]\w*)'/g))
        written.add(m[1]!);
    }
    assert.ok(written.has('ApiKey') && written.has('Document') && written.has('Submission'), [...written].join(','));
    assert.deepEqual(
      [...written].filter((l) => !RESERVED_LABELS.has(l)),
      [],
    );
    assert.deepEqual(
      [...RECORD_LABELS].filter((l) => !RESERVED_LABELS.has(l)),
      [],
    );
  });

  it('a draft refuses an engine label as an entity type even when a caller slipped past the checks', () => {
    const draft = new DeltaDraft('test', 'test');
    assert.throws(() => draft.createNode(['Entity', 'Document'], { name: 'x' }));
    assert.throws(() => draft.createNode(['ApiKey'], { name: 'x' }));
  });

  for (const type of ['Document', 'Memory', 'Shape', 'Chunk', 'Entity', 'ApiKey', 'Delta', 'Knowledge', 'Submission']) {
    it(`a memory whose subject type is ${type} is a 400 naming /body/subject/type and writes nothing`, async () => {
      const t = await newTenant(0);
      const reply = await t.post('/v1/memories', {
        content: 'About a thing.',
        subject: { name: 'Quarterly report', type },
      });
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.equal(reply.body.error.code, 'invalid_request');
      assert.deepEqual(
        reply.body.error.details.fields.map((f: { field: string }) => f.field),
        ['/body/subject/type'],
      );
      const [row] = await harness().service.deps.graph.read((tx) =>
        tx.runText('MATCH (n:Knowledge {project_id: $p}) RETURN count(n) AS n', { p: t.projectId }),
      );
      assert.equal(Number(row?.n), 0);
    });
  }

  it('a batch memory whose object type is reserved names its own field', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/memories', {
      memories: [{ content: 'Fine.' }, { content: 'Not fine.', object: { name: 'Spec', type: 'Shape' } }],
    });
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.deepEqual(
      reply.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/body/memories/1/object/type'],
    );
  });

  it('a submission through the memory shape stages no :Entity:Memory node', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/submissions', {
      kind: 'note',
      shape_id: MEMORY_SHAPE_ID,
      content: 'Ada Lovelace decided to ship the engine. Memory of the launch.',
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const [row] = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        'MATCH (n:Entity {project_id: $p}) WHERE any(l IN labels(n) WHERE l IN $reserved AND l <> "Entity") RETURN count(n) AS n',
        { p: t.projectId, reserved: [...RESERVED_LABELS] },
      ),
    );
    assert.equal(Number(row?.n), 0);
    const recall = await t.post('/v1/memories/search', {});
    assert.equal(recall.body.count, 0);
  });

  it('graph and search filters naming engine labels are 400s naming the field', async () => {
    const t = await newTenant(0);
    const nodes = await t.get('/v1/graph/nodes?label=ApiKey');
    assert.equal(nodes.status, 400, JSON.stringify(nodes.body));
    assert.deepEqual(
      nodes.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/query/label'],
    );
    const search = await t.post('/v1/search', {
      query: 'anything',
      planes: ['entity'],
      filters: { entity: { types: ['Person', 'Memory'] } },
    });
    assert.equal(search.status, 400, JSON.stringify(search.body));
    assert.deepEqual(
      search.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/body/filters/entity/types/1'],
    );
  });
});
