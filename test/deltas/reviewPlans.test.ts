// The review's own statements (src/deltas/rehearse.ts reviewStatements) keep their plans whatever the statistics
// do (CYPHER replan=skip), and those plans start from the delta's id: a bulk import made Neo4j plan them again
// inside the next apply (2.4-3.3 s of compiling), and on a grown graph it chose a scan of every TARGET relationship.
import assert from 'node:assert/strict';
import { cypher } from '../../src/db/cypher.js';
import { NO_MATCH_ID } from '../../src/db/warming.js';
import { reviewStatements } from '../../src/deltas/rehearse.js';
import { harness } from '../support/harness.js';

const SKIP = /^CYPHER replan=skip$/m;
const params = {
  delta_id: NO_MATCH_ID,
  project_id: NO_MATCH_ID,
  now: new Date().toISOString(),
  embed: true,
  actor: NO_MATCH_ID,
  override_reason: null,
  override_findings: null,
  reason: null,
  limit: 1001,
};

/** The operators of `text` planned now, on today's statistics (replan=force in place of the file's skip). */
async function operators(text: string): Promise<string[]> {
  const graph = harness().service.deps.graph;
  const session = graph.driver.session({ database: graph.database });
  try {
    const result = await session.run(`CYPHER replan=force EXPLAIN ${text.replace(SKIP, '')}`, params);
    const out: string[] = [];
    const walk = (plan: { operatorType: string; arguments: Record<string, unknown>; children?: unknown[] }) => {
      out.push(`${plan.operatorType.replace(/@.*/, '')} ${String(plan.arguments.Details ?? '')}`);
      for (const child of plan.children ?? []) walk(child as typeof plan);
    };
    walk(result.summary.plan as unknown as Parameters<typeof walk>[0]);
    return out;
  } finally {
    await session.close();
  }
}

describe("the review's statements", () => {
  it('keep their plans across statistics, start from the delta id and scan nothing', async () => {
    const names = reviewStatements();
    assert.ok(names.length >= 14, names.join(', '));
    const graph = harness().service.deps.graph;
    for (const name of names) {
      const text = cypher(name);
      assert.match(text.replace(/^\/\/.*\n/gm, ''), /^CYPHER replan=skip\n/, `${name} keeps its plan`);
      const ops = await operators(text);
      assert.ok(
        ops.some((op) => /^NodeUniqueIndexSeek.* \w+:Delta\(id\)/.test(op)),
        `${name} seeks the delta: ${ops.join(' | ')}`,
      );
      assert.deepEqual(
        ops.filter((op) => /Scan/.test(op)),
        [],
        `${name} scans nothing`,
      );
      // As Graph.warm plans it after a restart.
      await graph.write((tx) => tx.runText(`EXPLAIN ${text}`, params));
    }
  });
});
