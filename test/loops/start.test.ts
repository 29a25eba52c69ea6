import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../src/http/app.js';
import { allRoutes } from '../../src/routes.js';
import { TemporalGateway } from '../../src/temporal/connection.js';
import { grantCredits } from '../../src/credits/service.js';
import { call, newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { createDocument, GENERAL_SHAPE_ID, STORY } from './support.js';

const graph = () => harness().service.deps.graph;

async function counts(projectId: string, organizationId: string) {
  const [row] = await graph().read((tx) =>
    tx.runText(
      `MATCH (a:CreditAccount {organization_id: $o})
     CALL { MATCH (l:Loop {project_id: $p}) RETURN count(l) AS loops }
     CALL { MATCH (d:Delta {project_id: $p, origin: 'loop'}) RETURN count(d) AS deltas }
     RETURN a.balance AS balance, loops, deltas`,
      { p: projectId, o: organizationId },
    ),
  );
  return { balance: Number(row?.balance), loops: Number(row?.loops), deltas: Number(row?.deltas) };
}

describe('POST /v1/loops', () => {
  const extraction = (sourceId: string) => ({
    kind: 'graph_extraction',
    goal: 'map who works where',
    context: { source_ids: [sourceId] },
    schema: { shape_ids: [GENERAL_SHAPE_ID] },
  });

  it('an unknown kind is unsupported_loop_kind', async () => {
    const t = await newTenant();
    const reply = await t.post('/v1/loops', { kind: 'summarize', goal: 'x' });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'unsupported_loop_kind');
    assert.equal(reply.body.error.details.fields[0].field, '/body/kind');
  });

  it('an unknown effort is unsupported_loop_effort', async () => {
    const t = await newTenant();
    const reply = await t.post('/v1/loops', { kind: 'hydrate', goal: 'x', loop: { effort: 'heroic' } });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'unsupported_loop_effort');
  });

  it('asking to apply is apply_not_supported_for_loops', async () => {
    const t = await newTenant();
    const reply = await t.post('/v1/loops', { kind: 'hydrate', goal: 'x', output: { type: 'delta', apply: true } });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'apply_not_supported_for_loops');
  });

  for (const [name, body, field] of [
    ['a missing goal', { kind: 'hydrate' }, '/body/goal'],
    [
      'graph_extraction without sources',
      { kind: 'graph_extraction', goal: 'g', schema: { shape_ids: [GENERAL_SHAPE_ID] } },
      '/body/context/source_ids',
    ],
    [
      'graph_extraction without shapes',
      { kind: 'graph_extraction', goal: 'g', context: { source_ids: ['x'] } },
      '/body/schema/shape_ids',
    ],
    [
      'an unknown source',
      {
        kind: 'graph_extraction',
        goal: 'g',
        context: { source_ids: ['nope'] },
        schema: { shape_ids: [GENERAL_SHAPE_ID] },
      },
      '/body/context/source_ids/0',
    ],
    ['an unknown shape', { kind: 'hydrate', goal: 'g', schema: { shape_ids: ['nope'] } }, '/body/schema/shape_ids/0'],
    [
      'max_iterations over 10',
      { kind: 'hydrate', goal: 'g', loop: { max_iterations: 11 } },
      '/body/loop/max_iterations',
    ],
    [
      'quality_threshold over 1',
      { kind: 'hydrate', goal: 'g', loop: { quality_threshold: 1.5 } },
      '/body/loop/quality_threshold',
    ],
    ['an unknown field', { kind: 'hydrate', goal: 'g', colour: 'red' }, '/body/colour'],
    [
      'the llm extractor without an endpoint',
      { kind: 'hydrate', goal: 'g', loop: { extractor: 'llm' } },
      '/body/loop/extractor',
    ],
  ] as const) {
    it(`${name} is a 400 naming ${field}`, async () => {
      const t = await newTenant();
      const reply = await t.post('/v1/loops', body);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.equal(reply.body.error.code, 'invalid_request');
      assert.ok(
        reply.body.error.details.fields.some((f: { field: string }) => f.field === field),
        JSON.stringify(reply.body.error),
      );
    });
  }

  it('a dry run returns the plan and starts and spends nothing', async () => {
    const t = await newTenant(100);
    const doc = await createDocument(t, STORY);
    const before = await counts(t.projectId, t.organizationId);
    const reply = await t.post('/v1/loops', {
      ...extraction(doc),
      dry_run: true,
      loop: { effort: 'agentic_plus', max_iterations: 2 },
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.dry_run, true);
    assert.equal(reply.body.plan.workflow_type, 'graphExtractionLoop');
    assert.equal(reply.body.plan.effort, 'agentic_plus');
    assert.equal(reply.body.plan.sources[0].id, doc);
    assert.equal(reply.body.plan.shapes[0].name, 'general');
    assert.equal(reply.body.plan.credits.estimate, reply.body.plan.credits.per_iteration * 2);
    assert.ok(reply.body.plan.steps_per_iteration.length > 0);
    assert.deepEqual(await counts(t.projectId, t.organizationId), before);
  });

  it('without enough credits a start is credits_exhausted (402) and keeps nothing', async () => {
    const t = await newTenant(0);
    const doc = await createDocument(t, STORY);
    const reply = await t.post('/v1/loops', extraction(doc));
    assert.equal(reply.status, 402);
    assert.equal(reply.body.error.code, 'credits_exhausted');
    assert.deepEqual(await counts(t.projectId, t.organizationId), { balance: 0, loops: 0, deltas: 0 });
  });

  it('concurrent starts never overspend: with credits for one loop exactly one starts', async () => {
    const t = await newTenant(0);
    const doc = await createDocument(t, STORY);
    const plan = await t.post('/v1/loops', { ...extraction(doc), dry_run: true });
    await grantCredits(graph(), t.organizationId, plan.body.plan.credits.estimate, 'exactly one loop');
    const replies = await Promise.all([1, 2, 3, 4].map(() => t.post('/v1/loops', extraction(doc))));
    assert.deepEqual(replies.map((r) => r.status).sort(), [202, 402, 402, 402]);
    const after = await counts(t.projectId, t.organizationId);
    assert.equal(after.loops, 1);
    assert.ok(after.balance >= 0);
  });

  it('with Temporal unreachable a start is loop_dispatch_unavailable within 5 s, with no credits kept and no delta left', async () => {
    const base = harness().service.deps;
    const temporal = new TemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'none' });
    const deps = { ...base, temporal };
    const server = http.createServer(buildApp(deps, allRoutes(deps)).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const t = await newTenant(100);
      const doc = await createDocument(t, STORY);
      const before = await counts(t.projectId, t.organizationId);
      const started = Date.now();
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/loops`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(extraction(doc)),
      });
      const body = (await response.json()) as { error: { code: string } };
      assert.equal(response.status, 503);
      assert.equal(body.error.code, 'loop_dispatch_unavailable');
      assert.ok(Date.now() - started < 5_500, `took ${Date.now() - started} ms`);
      assert.deepEqual(await counts(t.projectId, t.organizationId), before);
    } finally {
      server.close();
    }
  });

  it('an unknown loop is a 404 and another project cannot read a loop', async () => {
    const t = await newTenant();
    assert.equal((await t.get('/v1/loops/nope')).status, 404);
    const doc = await createDocument(t, STORY);
    const started = await t.post('/v1/loops', extraction(doc));
    const other = await newTenant();
    assert.equal((await other.get(`/v1/loops/${started.body.loop_id}`)).status, 404);
    assert.equal(
      (await call('GET', `/v1/loops/${started.body.loop_id}/events`, undefined, { key: other.key })).status,
      404,
    );
  });
});

describe('POST /v1/extractions/shape', () => {
  it('following the document extract handoff verbatim starts a graph_extraction loop through the shape it named', async () => {
    const t = await newTenant(100);
    const doc = await createDocument(t, STORY);
    const handoff = await t.post(`/v1/documents/${doc}/extract`, { shape_id: GENERAL_SHAPE_ID });
    assert.equal(handoff.status, 202);
    const next = handoff.body.next_action;
    const reply = await t.post(next.path, next.body);
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    assert.ok(reply.body.loop_id);
    const plan = await t.post(next.path, { ...next.body, dry_run: true });
    assert.equal(plan.body.plan.shapes[0].id, GENERAL_SHAPE_ID);
    assert.equal(plan.body.plan.kind, 'graph_extraction');
  });

  it('an unknown document is a 404 and a document never handed off needs shape_id', async () => {
    const t = await newTenant(100);
    assert.equal((await t.post('/v1/extractions/shape', { source_file_id: 'nope' })).status, 404);
    const doc = await createDocument(t, STORY);
    const reply = await t.post('/v1/extractions/shape', { source_file_id: doc });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details.fields[0].field, '/body/shape_id');
  });
});
