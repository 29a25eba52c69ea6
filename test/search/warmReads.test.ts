// The read paths' rehearsal at start (src/search/warmReads.ts): after it, a memory search of a question shaped like
// the rehearsal's plans none of recall's statements again; without it, the same search plans them. Read from
// Neo4j's own query collector (each invocation's compile time), on plan caches cleared first, so the rehearsal is
// what the second search finds or not.
import assert from 'node:assert/strict';
import pino from 'pino';
import { warmReads, WARM_QUESTIONS, WARM_READS } from '../../src/search/warmReads.js';
import { divergence, ReadPlanKeeper } from '../../src/search/readPlans.js';
import { LiveTraffic } from '../../src/shared/pacing.js';
import { registry } from '../../src/ops/metrics.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { waitForMentions, waitForTermVectors } from '../support/mentions.js';
import { clearPlans as clearPlansIn, plannedDuring as plannedInGraph } from '../support/queryCollector.js';

const plannedDuring = (projectId: string, work: () => Promise<void>) =>
  plannedInGraph(harness().service.deps.graph, projectId, work);
const clearPlans = () => clearPlansIn(harness().service.deps.graph);

describe('the read paths rehearsed at start', function () {
  this.timeout(300_000);

  it('a hybrid search after the rehearsal plans none of its statements again; without it, it plans them', async () => {
    const { deps } = harness().service;
    const t = await newTenant(0);
    const wrote = await t.post('/v1/memories', {
      content: 'Alice: the garden needs new soil before May.',
      episode: 'garden-call',
    });
    assert.equal(wrote.status, 201, JSON.stringify(wrote.body));
    // A question the project's words answer, and one they do not: its words-alone window is empty, so the full-text
    // statement runs again with the tenant clause (src/db/fullText.ts), a parameter of another type.
    const search = async () => {
      for (const query of [WARM_QUESTIONS[2]!, 'harbour']) {
        const r = await t.post('/v1/memories/search', { query, limit: 10, mode: 'hybrid' });
        assert.equal(r.status, 200, JSON.stringify(r.body));
      }
    };
    await search(); // the key is known to the process from here on, as after any first request

    await clearPlans();
    const cold = await plannedDuring(t.projectId, search);
    assert.ok(cold.length >= 3, `without the rehearsal the search plans its statements: ${cold.join('; ')}`);

    await clearPlans();
    const ran = await warmReads(deps, pino({ level: 'silent' }));
    assert.equal(ran, WARM_READS, 'every question on every read path, and the answer');
    assert.deepEqual(await plannedDuring(t.projectId, search), [], 'statements the search planned again');
  });

  it("a list question after the rehearsal plans none of the hops' walk by meaning, though the rehearsal's project has no terms", async () => {
    const { deps } = harness().service;
    const t = await newTenant(0);
    for (const content of ['Alice: I played my violin at the recital.', 'Alice: My cello needs new strings.']) {
      const wrote = await t.post('/v1/memories', { content });
      assert.equal(wrote.status, 201, JSON.stringify(wrote.body));
    }
    // The walk starts from the project's terms by their vectors: the mention worker makes them, the embedding worker
    // embeds their names.
    await waitForTermVectors(t.projectId);
    // Questions of the rehearsal's shapes, not its words: without a name (an empty list of hop terms) and with one.
    const search = async () => {
      for (const query of ['Which instruments need new strings?', 'What instruments does Alice own?']) {
        const r = await t.post('/v1/memories/search', { query, limit: 10, mode: 'hybrid' });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.match(r.headers.get('server-timing') ?? '', /\bwalk\b/, `${query} was walked by meaning`);
      }
    };
    await search();
    await clearPlans();
    await warmReads(deps, pino({ level: 'silent' }));
    assert.deepEqual(await plannedDuring(t.projectId, search), [], 'statements the list questions planned again');
  });
});

describe('the read paths rehearsed again as the graph grows (the read plan keeper)', function () {
  this.timeout(300_000);

  it('divergence is the largest move of any statistic, as Neo4j measures one', () => {
    assert.equal(divergence({ memories: 4, terms: 10 }, { memories: 16, terms: 10 }), 0.75);
    assert.equal(divergence({ memories: 16 }, { memories: 4 }), 0.75, 'a count that falls moves too');
    assert.equal(divergence({ memories: 0 }, { memories: 0, terms: 3 }), 1, 'a statistic not read before was 0');
    assert.equal(divergence({ memories: 5 }, { memories: 5 }), 0);
  });

  it('after the statistics moved its round rehearses the read paths, so the next search plans none of its statements; unmoved, it rehearses nothing', async () => {
    const { deps } = harness().service;
    const t = await newTenant(0);
    const remember = async (content: string) => {
      const wrote = await t.post('/v1/memories', { content, episode: 'garden-call' });
      assert.equal(wrote.status, 201, JSON.stringify(wrote.body));
      await waitForMentions(t.projectId);
    };
    const search = async () => {
      const r = await t.post('/v1/memories/search', { query: WARM_QUESTIONS[2]!, limit: 10, mode: 'hybrid' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    };
    await remember('Alice: the garden needs new soil before May.');
    await search(); // the key is known to the process from here on
    // Any move counts here (a memory is a small share of the suite's store); no wait for Neo4j's interval, since the
    // plans are cleared below and each round's rehearsal plans them first.
    const keeper = new ReadPlanKeeper(deps, pino({ level: 'silent' }), new LiveTraffic(), {
      divergence: 1e-12,
      minGapMs: 0,
      quietMs: 0,
    });
    await keeper.mark();

    await clearPlans();
    assert.equal(await keeper.tick(), 'unchanged');
    const cold = await plannedDuring(t.projectId, search);
    assert.ok(cold.length >= 3, `with nothing rehearsed the search plans its statements: ${cold.join('; ')}`);

    await remember('Alice: the roses need pruning in March.');
    await clearPlans();
    const counted = async () =>
      Number(/^gks_read_plan_rehearsals_total (\d+)/m.exec(await registry.metrics())?.[1] ?? Number.NaN);
    const before = await counted();
    assert.equal(await keeper.tick(), 'rehearsed');
    assert.equal(await counted(), before + 1, 'gks_read_plan_rehearsals_total counts it');
    assert.deepEqual(await plannedDuring(t.projectId, search), [], 'statements the search planned again');
    assert.equal(await keeper.tick(), 'unchanged', 'the statistics it rehearsed with are its new baseline');
  });

  it('rehearses in idle time only: while the process serves a request the round leaves it for the next', async () => {
    const { deps } = harness().service;
    const t = await newTenant(0);
    const traffic = new LiveTraffic();
    const keeper = new ReadPlanKeeper(deps, pino({ level: 'silent' }), traffic, {
      divergence: 1e-12,
      minGapMs: 0,
      quietMs: 200,
    });
    await keeper.mark();
    const wrote = await t.post('/v1/memories', { content: 'Bruno: the fence needs paint.' });
    assert.equal(wrote.status, 201, JSON.stringify(wrote.body));
    const end = traffic.begin();
    assert.equal(await keeper.tick(), 'busy');
    assert.equal(keeper.rehearsals, 0);
    end();
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(await keeper.tick(), 'rehearsed');
  });

  it("waits for Neo4j's replanning interval after its last rehearsal before rehearsing again", async () => {
    const { deps } = harness().service;
    const t = await newTenant(0);
    const keeper = new ReadPlanKeeper(deps, pino({ level: 'silent' }), new LiveTraffic(), {
      divergence: 1e-12,
      minGapMs: 600_000,
    });
    await keeper.mark();
    const wrote = await t.post('/v1/memories', { content: 'Bruno: the shed roof leaks.' });
    assert.equal(wrote.status, 201, JSON.stringify(wrote.body));
    assert.equal(await keeper.tick(), 'too_soon');
    assert.equal(keeper.rehearsals, 0);
  });
});
