import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { GENERAL_SHAPE_ID } from '../loops/support.js';

async function knowledgeCount(projectId: string): Promise<number> {
  const [row] = await harness().service.deps.graph.read((tx) =>
    tx.runText('MATCH (n:Knowledge {project_id: $p}) RETURN count(n) AS n', { p: projectId }),
  );
  return Number(row?.n);
}

describe('POST /v1/submissions: authorization, replay and atomicity', function () {
  this.timeout(180_000);

  it('route document also needs documents:write: 403 naming it, nothing written', async () => {
    const t = await newTenant();
    const key = await t.keyWith({ scopes: ['submissions:write'] });
    const reply = await t.post(
      '/v1/submissions',
      { kind: 'note', route: 'document', content: 'Quarterly goals.' },
      { key },
    );
    assert.equal(reply.status, 403, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 'forbidden');
    assert.equal(reply.body.error.details.missing_scope, 'documents:write');
    assert.equal(await knowledgeCount(t.projectId), 0);
  });

  it('route extraction also needs loops:run (and documents:write): 403 naming the missing scope', async () => {
    const t = await newTenant();
    const onlySubmit = await t.keyWith({ scopes: ['submissions:write', 'documents:write'] });
    const reply = await t.post(
      '/v1/submissions',
      {
        kind: 'note',
        route: 'extraction',
        shape_id: GENERAL_SHAPE_ID,
        content: 'Grace Hopper works for Remington Rand.',
      },
      { key: onlySubmit },
    );
    assert.equal(reply.status, 403, JSON.stringify(reply.body));
    assert.equal(reply.body.error.details.missing_scope, 'loops:run');
    const noDocs = await t.keyWith({ scopes: ['submissions:write', 'loops:run'] });
    const second = await t.post(
      '/v1/submissions',
      {
        kind: 'note',
        route: 'extraction',
        shape_id: GENERAL_SHAPE_ID,
        content: 'Grace Hopper works for Remington Rand.',
      },
      { key: noDocs },
    );
    assert.equal(second.status, 403);
    assert.equal(second.body.error.details.missing_scope, 'documents:write');
    assert.equal(await knowledgeCount(t.projectId), 0);
  });

  it('an idempotent replay of route document answers 201 like the first request', async () => {
    const t = await newTenant();
    const body = { kind: 'note', route: 'document', content: 'Replay me.' };
    const headers = { 'Idempotency-Key': `replay-${Date.now()}` };
    const first = await t.post('/v1/submissions', body, { headers });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = await t.post('/v1/submissions', body, { headers });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
  });

  it('route extraction without credits is a 402 and leaves no document behind', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/submissions', {
      kind: 'note',
      route: 'extraction',
      shape_id: GENERAL_SHAPE_ID,
      content: 'Grace Hopper works for Remington Rand.',
    });
    assert.equal(reply.status, 402, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 'credits_exhausted');
    assert.equal(await knowledgeCount(t.projectId), 0);
    const [deltas] = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (d:Delta {project_id: $p}) WHERE d.status <> "failed" RETURN count(d) AS n', {
        p: t.projectId,
      }),
    );
    assert.equal(Number(deltas?.n), 0);
    const docs = await t.get('/v1/documents');
    assert.equal(docs.body.sources.length, 0);
  });
});
