// The apply guard runs the preflight checks on the plans the audit uses (docs/preflight.md, "Query plans"). Neo4j
// keys a cached plan by whether its transaction has written: the apply's locks write nothing new, so the guard
// plans none of the seventeen checks again. Read from Neo4j's own query collector: each invocation's compile time.
import assert from 'node:assert/strict';
import { cypher } from '../../src/db/cypher.js';
import { NO_MATCH_ID } from '../../src/db/warming.js';
import { newTenant } from '../support/api.js';
import { graph } from './support.js';
import { collectQueries } from '../support/queryCollector.js';

/** The compile time of every check statement run for `deltaId` while `work` ran, by check name. */
async function checkCompileTimes(deltaId: string, work: () => Promise<void>): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>();
  for (const row of await collectQueries(graph(), work)) {
    // Each file opens with "// Check: <name>" (the collector keeps a long statement's head only).
    const check = /^\/\/ Check: ([a-z_]+)/m.exec(row.query)?.[1];
    if (!check || !row.query.includes('gks_plan_set_')) continue;
    for (const call of row.calls)
      if (call.params?.delta_id === deltaId)
        times.set(check, [...(times.get(check) ?? []), call.elapsedCompileTimeInUs]);
  }
  return times;
}

describe('preflight plans: the apply guard', function () {
  this.timeout(120_000);

  it("runs every check on the audit's cached plan: an apply plans none of them again", async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', {
      content: 'Grace Hopper joined the review team.',
      subject: 'Grace Hopper',
      apply: false,
    });
    assert.equal(staged.status, 201, JSON.stringify(staged.body));
    const deltaId = String(staged.body.delta_id);
    assert.equal((await t.post('/v1/preflight/audit', { delta_id: deltaId })).status, 200);
    const times = await checkCompileTimes(deltaId, async () => {
      const applied = await t.post(`/v1/deltas/${deltaId}/apply`, { override_reason: 'a reviewer read it' });
      assert.equal(applied.status, 200, JSON.stringify(applied.body));
    });
    assert.ok(times.size >= 17, `the collector saw the guard's checks: ${[...times.keys()].join(', ')}`);
    const planned = [...times].filter(([, us]) => Math.max(...us) >= 100_000);
    assert.deepEqual(
      planned.map(([check, us]) => `${check}: ${Math.round(Math.max(...us) / 1000)} ms`),
      [],
      'checks the apply planned again (a cached plan compiles in about a millisecond)',
    );
  });

  it("the check by meaning's statements keep their plans across statistics and scan nothing", async () => {
    const vector = Array.from({ length: 384 }, (_, i) => (i === 0 ? 1 : 0));
    const params = {
      delta_id: NO_MATCH_ID,
      project_id: NO_MATCH_ID,
      k: 200,
      exact_up_to: 500,
      model: 'm',
      threshold: 0.9,
      pending: [{ id: NO_MATCH_ID, type: 'Person', vector }],
    };
    for (const name of ['delta_nodes', 'near_duplicates', 'near_entities']) {
      const text = cypher(`preflight/meaning/${name}`);
      // Neo4j planned them again inside the first audits after a young graph grew (0.2-0.5 s each).
      assert.match(text, /^CYPHER replan=skip$/m, `${name} keeps its plan`);
      const session = graph().driver.session({ database: graph().database });
      try {
        const explained = await session.run(
          `CYPHER replan=force EXPLAIN ${text.replace(/^CYPHER replan=skip$/m, '')}`,
          params,
        );
        const ops: string[] = [];
        const walk = (plan: { operatorType: string; children?: unknown[] }) => {
          ops.push(plan.operatorType);
          for (const child of plan.children ?? []) walk(child as typeof plan);
        };
        walk(explained.summary.plan as unknown as Parameters<typeof walk>[0]);
        assert.deepEqual(
          ops.filter((op) => /Scan/.test(op)),
          [],
          `${name}: ${ops.join(' | ')}`,
        );
      } finally {
        await session.close();
      }
    }
  });
});
