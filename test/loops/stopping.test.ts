import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { createLoopActivities } from '../../src/loops/activities.js';
import type { LoopInput } from '../../src/loops/types.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { createDocument, GENERAL_SHAPE_ID, STORY, waitForLoop, startLaunchHydrate } from './support.js';

const graph = () => harness().service.deps.graph;

async function loopNode(id: string): Promise<Record<string, unknown>> {
  const [row] = await graph().read((tx) =>
    tx.runText(
      'MATCH (l:Loop {id: $id}) RETURN l.stop_reason AS stop_reason, l.credits_spent AS spent, l.iterations AS iterations',
      { id },
    ),
  );
  return row ?? {};
}

describe('loops: why they stop and what they charge', function () {
  this.timeout(180_000);

  it('hydrate stops after an iteration that links nothing new, charges only the iterations that ran, and reports real counts', async () => {
    const t = await newTenant(100);
    const started = await startLaunchHydrate(t, 5);
    const perIteration = Number(started.credits_reserved) / 5;
    const status = await waitForLoop(t, started.loop_id);
    assert.equal(status.status, 'completed', JSON.stringify(status));
    assert.equal(status.stop_reason, 'no_progress');
    const checkpoints = (await t.get(`/v1/loops/${started.loop_id}/checkpoints`)).body.checkpoints;
    assert.ok(checkpoints.length < 5, JSON.stringify(checkpoints));
    const last = checkpoints[checkpoints.length - 1];
    assert.equal(last.relationships_new + last.entities_new, 0);
    for (const c of checkpoints) {
      assert.equal(c.entities_staged, 0, 'hydrate stages no entities');
      assert.equal(c.resolved_to_existing, 0, 'hydrate resolves nothing');
    }
    const links = (await t.get(`/v1/deltas/${started.delta_id}`)).body.delta.changes.filter(
      (c: { type: string | null }) => c.type === 'RELEVANT_TO',
    );
    assert.equal(last.relationships_staged, links.length);
    assert.equal((status.credits as { spent: number }).spent, perIteration * checkpoints.length);
    const node = await loopNode(started.loop_id);
    assert.equal(node.stop_reason, 'no_progress');
    const credits = (await t.get('/v1/credits')).body;
    assert.equal(credits.balance, 100 - perIteration * checkpoints.length);
  });

  it('graph_extraction records quality_reached when the threshold is met, and max_iterations when it runs out', async () => {
    const t = await newTenant(100);
    const doc = await createDocument(t, STORY);
    const body = (threshold: number) => ({
      kind: 'graph_extraction',
      goal: 'who works where',
      context: { source_ids: [doc] },
      schema: { shape_ids: [GENERAL_SHAPE_ID] },
      loop: { max_iterations: 1, quality_threshold: threshold },
    });
    const reached = await t.post('/v1/loops', body(0));
    const reachedStatus = await waitForLoop(t, reached.body.loop_id);
    assert.equal(reachedStatus.stop_reason, 'quality_reached', JSON.stringify(reachedStatus));
    const capped = await t.post('/v1/loops', body(1));
    const cappedStatus = await waitForLoop(t, capped.body.loop_id);
    assert.equal(cappedStatus.stop_reason, 'max_iterations', JSON.stringify(cappedStatus));
    assert.equal((await loopNode(capped.body.loop_id)).stop_reason, 'max_iterations');
  });

  it('a 409 conflict while staging is a non-retryable activity failure', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'Rollback plans for the launch.' });
    const activities = createLoopActivities({
      graph: graph(),
      config: harness().config,
      embedder: null,
      loadShape: async () => null,
      validateEntity: () => [],
    });
    const input: LoopInput = {
      loopId: crypto.randomUUID(),
      kind: 'hydrate',
      projectId: t.projectId,
      organizationId: t.organizationId,
      deltaId: crypto.randomUUID(), // no such delta: its context node is never staged, so every link dangles
      keyId: t.keyId,
      goal: 'launch rollback',
      subject: null,
      sourceIds: [],
      shapeIds: [],
      effort: 'agentic',
      maxIterations: 1,
      qualityThreshold: 1,
      extractor: 'builtin',
      creditsReserved: 0,
      creditsPerIteration: 0,
    };
    await assert.rejects(activities.gatherContext({ input, iteration: 1 }), (error: unknown) => {
      assert.ok(error instanceof ApplicationFailure, String(error));
      assert.equal(error.nonRetryable, true);
      assert.equal(error.type, 'LoopConflict');
      return true;
    });
  });
});
