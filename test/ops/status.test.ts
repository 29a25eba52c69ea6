import assert from 'node:assert/strict';
import http from 'node:http';
import { call, newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { timesRun } from '../../src/db/cypher.js';
import { VectorCounts } from '../../src/embeddings/vectorCounts.js';

describe('ops views', () => {
  it('/readyz says each dependency is up and since when, and lists the supervised engines, without auth', async () => {
    const reply = await call('GET', '/readyz');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.status, 'ready');
    for (const name of ['neo4j', 'temporal']) {
      assert.equal(reply.body.dependencies[name].status, 'up');
      assert.ok(Date.parse(reply.body.dependencies[name].since) <= Date.now());
      assert.equal(reply.body[name], true);
    }
    const engines = reply.body.engines as { name: string; state: string; restarts: number }[];
    assert.deepEqual(
      engines.map((e) => e.name).sort(),
      harness()
        .endpoints.supervisors.map((s) => s.name)
        .sort(),
    );
    for (const e of engines) {
      assert.equal(e.state, 'running');
      assert.deepEqual(
        Object.keys(e).sort(),
        ['name', 'restarts', 'since', 'state'],
        'no pids or error texts in public',
      );
    }
  });

  it('GET /v1/status gives the detailed view to an admin key only', async () => {
    const t = await newTenant(0);
    const admin = await t.keyWith({ scopes: ['admin'] });
    const reply = await call('GET', '/v1/status', undefined, { key: admin });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.ready, true);
    assert.equal(reply.body.dependencies.neo4j.status, 'up');
    assert.equal(typeof reply.body.dependencies.temporal.outages, 'number');
    assert.equal(reply.body.worker.state, 'running');
    for (const e of reply.body.engines) assert.ok(Number.isInteger(e.pid) && e.state === 'running');
    const reader = await t.keyWith({ scopes: ['memories:read'] });
    const denied = await call('GET', '/v1/status', undefined, { key: reader });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.details.missing_scope, 'admin');
  });

  // Counting vectors reads every memory, chunk and entity of every project (about 2 s of Neo4j work at a million
  // memories): an ops dashboard polling /v1/status must not pay it on every call.
  it('GET /v1/status counts vectors at most once per window: a second call within it runs no count and says when it counted', async () => {
    const t = await newTenant(0);
    const admin = await t.keyWith({ scopes: ['admin'] });
    const first = await call('GET', '/v1/status', undefined, { key: admin });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const counted = first.body.embeddings.vectors.counted_at as string;
    assert.ok(Date.now() - Date.parse(counted) < 35_000, counted);
    const before = timesRun('embeddings/model_counts');
    const second = await call('GET', '/v1/status', undefined, { key: admin });
    assert.equal(second.status, 200);
    assert.equal(timesRun('embeddings/model_counts'), before);
    assert.deepEqual(second.body.embeddings.vectors, first.body.embeddings.vectors);
  });

  it('vector counts: concurrent reads share one count; the window passed or another model counts again', async () => {
    const graph = harness().service.deps.graph;
    // A window long enough that one count of the suite's graph never outlasts it on a slow machine.
    const counts = new VectorCounts(3_000);
    const start = timesRun('embeddings/model_counts');
    const [a, b] = await Promise.all([counts.read(graph, 'm1'), counts.read(graph, 'm1')]);
    assert.equal(timesRun('embeddings/model_counts'), start + 1);
    assert.equal(a, b);
    assert.equal(await counts.read(graph, 'm1'), a);
    assert.equal(timesRun('embeddings/model_counts'), start + 1);
    await counts.read(graph, 'm2');
    assert.equal(timesRun('embeddings/model_counts'), start + 2);
    await new Promise((r) => setTimeout(r, 3_100));
    const later = await counts.read(graph, 'm2');
    assert.equal(timesRun('embeddings/model_counts'), start + 3);
    assert.ok(Date.parse(later.counted_at) > Date.parse(a.counted_at));
  });

  it('GET /v1/status never reads a body: a malformed JSON body, query parameters or odd headers still answer 200 (no undeclared 400)', async () => {
    const t = await newTenant(0);
    const admin = await t.keyWith({ scopes: ['admin'] });
    const url = new URL('/v1/status?unknown=1&cursor=zz', harness().url);
    const status = await new Promise<number>((resolve, reject) => {
      const body = '{"not json';
      const req = http.request(
        url,
        {
          method: 'GET',
          headers: {
            Authorization: `Bearer ${admin}`,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            'Idempotency-Key': 'not visible ascii \u00e9',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(status, 200);
  });

  it('GET /metrics counts requests by route template and status and shows dependency availability', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', { content: 'Metrics count this write.' });
    assert.equal(created.status, 201);
    assert.equal((await t.get(`/v1/memories/${created.body.id}`)).status, 200);
    const reply = await fetch(`${harness().url}/metrics`);
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await reply.text();
    assert.match(text, /gks_http_requests_total\{method="POST",route="\/v1\/memories",status="201"\} \d+/);
    assert.match(
      text,
      /gks_http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/v1\/memories\/:id",status="200"\} \d+/,
    );
    assert.ok(!text.includes(created.body.id), 'raw paths (ids) never become labels');
    assert.match(text, /gks_dependency_up\{dependency="neo4j"\} 1/);
    assert.match(text, /gks_dependency_up\{dependency="temporal"\} 1/);
    assert.match(text, /gks_engine_up\{engine="neo4j"\} 1/);
    for (const name of [
      'gks_engine_restarts_total',
      'gks_loop_starts_total',
      'gks_loop_outcomes_total',
      'gks_credits_spent_total',
      'gks_worker_restarts_total',
    ]) {
      assert.ok(text.includes(`# TYPE ${name} counter`), name);
    }
  });
});
