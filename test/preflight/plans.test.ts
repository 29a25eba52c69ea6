import assert from 'node:assert/strict';
import pino from 'pino';
import { preflightChecks } from '../../src/preflight/checks.js';
import { PreflightPlanKeeper, planSetFor, planSetStart } from '../../src/preflight/plans.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { graph } from './support.js';

async function graphSize(): Promise<number> {
  return Number((await graph().readOne<{ size: number }>('preflight/plans/graph_size'))?.size ?? 0);
}

/** Adds about `count` to the graph's size: nodes labelled PlanProbe, each with one relationship to itself. */
async function grow(count: number): Promise<void> {
  for (let left = Math.ceil(count / 2); left > 0; left -= 20_000) {
    await graph().write((tx) =>
      tx.runText('UNWIND range(1, $n) AS i CREATE (p:PlanProbe) CREATE (p)-[:PLAN_PROBE]->(p)', {
        n: Math.min(left, 20_000),
      }),
    );
  }
}

async function removeProbes(): Promise<void> {
  for (;;) {
    const [row] = await graph().write((tx) =>
      tx.runText('MATCH (p:PlanProbe) WITH p LIMIT 10000 DETACH DELETE p RETURN count(*) AS removed'),
    );
    if (Number(row?.removed ?? 0) === 0) return;
  }
}

/** The plan set a statement runs in, read from its marker. */
const setOf = (text: string) => /gks_plan_set_(\d+)/.exec(text)?.[1] ?? null;

describe('preflight plans', function () {
  this.timeout(300_000);
  const keepers: PreflightPlanKeeper[] = [];
  // The service's own keeper would move requests between sets while these tests do.
  before(() => harness().service.preflightPlans.stop());
  after(() => harness().service.preflightPlans.start());
  afterEach(async () => {
    await removeProbes();
    for (const keeper of keepers.splice(0)) await keeper.stop();
  });

  it('requests use the set planned for the graph size; the keeper moves them only after planning the next set, and again after Neo4j comes back', async () => {
    const keeper = new PreflightPlanKeeper(graph(), pino({ level: 'silent' }), 3_600_000);
    keepers.push(keeper);
    assert.equal(await keeper.tick(), 'start');
    const size = await graphSize();
    const set = planSetFor(size);
    assert.equal(keeper.current(), set);
    assert.ok(preflightChecks().every((c) => setOf(c.text) === String(set)));
    assert.equal(await keeper.tick(), null, 'nothing changed');

    const next = planSetStart(set + 1);
    await grow(next - size - 50);
    assert.equal(await keeper.tick(), null, 'still the same set');
    await grow(100);
    assert.equal(await keeper.tick(), 'resize');
    assert.equal(keeper.current(), set + 1);
    assert.ok(preflightChecks().every((c) => setOf(c.text) === String(set + 1)));
    assert.equal(await keeper.tick(), null);

    await removeProbes();
    assert.equal(await keeper.tick(), 'resize', 'smaller again');
    assert.equal(keeper.current(), set);

    graph().health.markDown('a test says Neo4j went away');
    graph().health.markUp();
    assert.equal(await keeper.tick(), 'reconnect', 'a restarted engine has lost its plans');
    assert.equal(await keeper.tick(), null);

    const metrics = await (await fetch(`${harness().url}/metrics`)).text();
    assert.match(metrics, /gks_preflight_plans_total\{reason="resize"\} [1-9]/);
  });

  it('an audit and a guarded apply after the graph has doubled judge the graph as it is, on the plans made before', async () => {
    const t = await newTenant(0);
    const first = await t.post('/v1/memories', { content: 'The invoice run is on Fridays.', apply: true });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const before = preflightChecks()[0]!.text;
    await grow(2 * Math.max(await graphSize(), planSetStart(1)));
    assert.equal(preflightChecks()[0]!.text, before, 'no keeper has moved requests to another set');
    const staged = await t.post('/v1/memories', { content: 'The invoice run is on Fridays.', apply: false });
    const audit = await t.post('/v1/preflight/audit', { delta_id: staged.body.delta_id });
    assert.equal(audit.status, 200, JSON.stringify(audit.body));
    assert.deepEqual(
      audit.body.findings.map((f: { check: string; evidence: { rule: string } }) => `${f.check}:${f.evidence.rule}`),
      ['duplicates:same_content'],
    );
    const applied = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
  });
});
