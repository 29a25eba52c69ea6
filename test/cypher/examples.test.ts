// The saved example queries (cypher/examples/*.cypher) run through `gks cypher -f` on real data made
// through the API: memories about an entity, a staged write, and a loop's extraction before and after
// its delta is applied.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { newTenant, type Tenant } from '../support/api.js';
import { neo4jEnv } from '../support/harness.js';
import { createDocument, STORY, waitForLoop, startExtraction } from '../loops/support.js';

const run = promisify(execFile);
type Row = Record<string, unknown>;

async function example(name: string, params: Record<string, string>): Promise<Row[]> {
  const args = ['bin/gks.js', 'cypher', '--json', '-f', `cypher/examples/${name}.cypher`];
  for (const [k, v] of Object.entries(params)) args.push('--param', `${k}=${JSON.stringify(v)}`);
  const { stdout } = await run('node', args, { env: { ...process.env, ...neo4jEnv() } });
  return (JSON.parse(stdout) as { rows: Row[] }).rows;
}

describe('saved example queries (cypher/examples)', function () {
  this.timeout(180_000);
  let t: Tenant;
  let stagedDeltaId: string;
  let loopId: string;
  let loopDeltaId: string;

  before(async () => {
    t = await newTenant(1000);
    const memory = {
      content: 'Margaret Hamilton works for MIT Instrumentation Lab.',
      subject: { name: 'Margaret Hamilton', type: 'Person' },
      object: { name: 'MIT Instrumentation Lab', type: 'Organization' },
      predicate: 'works_for',
    };
    assert.equal((await t.post('/v1/memories', memory)).status, 201);
    const staged = await t.post('/v1/memories', {
      content: 'Margaret Hamilton prefers tea.',
      subject: 'Margaret Hamilton',
      apply: false,
    });
    assert.equal(staged.body.status, 'staged', JSON.stringify(staged.body));
    stagedDeltaId = staged.body.delta_id;
    const doc = await createDocument(t, STORY);
    const started = { body: await startExtraction(t, doc, { goal: 'who works where', loop: { max_iterations: 1 } }) };
    ({ loop_id: loopId, delta_id: loopDeltaId } = started.body);
    assert.equal((await waitForLoop(t, loopId)).status, 'completed');
  });

  it('every example file documents its parameters', () => {
    const files = fs.readdirSync('cypher/examples').filter((f) => f.endsWith('.cypher'));
    assert.deepEqual(files.sort(), [
      'entities_and_sources.cypher',
      'loop_extraction.cypher',
      'memories_about_entity.cypher',
      'staged_delta_changes.cypher',
    ]);
    for (const f of files) assert.match(fs.readFileSync(`cypher/examples/${f}`, 'utf8'), /Parameters: \$/, f);
  });

  it('staged_delta_changes lists what a staged write would create', async () => {
    const rows = await example('staged_delta_changes', { delta_id: stagedDeltaId });
    assert.ok(rows.every((r) => r.delta_status === 'staged'));
    const node = rows.find((r) => r.change === 'create node');
    assert.deepEqual(node?.labels, ['Memory']);
    assert.match(String(node?.what), /^Margaret Hamilton prefers tea/);
    assert.ok(
      rows.some(
        (r) => r.change === 'add relationship' && String(r.what).endsWith('-[HAS_SUBJECT]-> Margaret Hamilton'),
      ),
      JSON.stringify(rows),
    );
  });

  it('memories_about_entity finds committed memories only, with the other end of the statement', async () => {
    const rows = await example('memories_about_entity', { project_id: t.projectId, name: 'margaret hamilton' });
    assert.equal(rows.length, 1, JSON.stringify(rows));
    assert.equal(rows[0]!.content, 'Margaret Hamilton works for MIT Instrumentation Lab.');
    assert.equal(rows[0]!.role, 'HAS_SUBJECT');
    assert.equal(rows[0]!.other_entity, 'MIT Instrumentation Lab');
  });

  it('loop_extraction shows the staged entities with their source document, and entities_and_sources once applied', async () => {
    const staged = await example('loop_extraction', { loop_id: loopId });
    assert.ok(staged.length > 0);
    assert.ok(staged.every((r) => r.delta_status === 'staged' && r.loop_status === 'completed'));
    const ada = staged.find((r) => r.name === 'Ada Lovelace');
    assert.deepEqual(ada?.documents, ['History of computing'], JSON.stringify(staged));
    assert.ok(typeof ada?.confidence === 'number');

    const before = await example('entities_and_sources', { project_id: t.projectId });
    assert.equal(
      before.find((r) => r.name === 'Ada Lovelace'),
      undefined,
      'staged entities are not listed',
    );
    const applied = await t.post(`/v1/deltas/${loopDeltaId}/apply`, { override_reason: 'example query test' });
    assert.equal(applied.status, 200, JSON.stringify(applied.body));

    const after = await example('entities_and_sources', { project_id: t.projectId });
    assert.deepEqual(after.find((r) => r.name === 'Ada Lovelace')?.documents, ['History of computing']);
    const margaret = after.find((r) => r.name === 'Margaret Hamilton');
    assert.equal(margaret?.memories, 1, 'the staged memory is not counted');
    assert.equal(margaret?.created_by_origin, 'memory');
  });
});
