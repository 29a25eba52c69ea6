import assert from 'node:assert/strict';
import fs from 'node:fs';
import { newTenant, type Tenant } from '../support/api.js';
import { graphSteady, harness } from '../support/harness.js';
import type { EngineSupervisor } from '../../src/runtime/supervisor.js';
import { allEvents, createDocument, GENERAL_SHAPE_ID, longStory, waitForLoop } from '../loops/support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The engine this test process started (never another run's engine on another port): its pid, checked to be our child. */
function ownEngine(name: string): { supervisor: EngineSupervisor; pid: number } {
  const supervisor = harness().endpoints.supervisors.find((s) => s.name === name);
  assert.ok(supervisor, `${name} is not supervised by this test run (external engines cannot be killed here)`);
  const pid = supervisor.status().pid;
  assert.ok(pid, `${name} has no pid`);
  const ppid = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
  assert.equal(ppid, process.pid, `${name} pid ${pid} is not a child of this test process`);
  return { supervisor, pid };
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const began = Date.now();
  // A polling read that meets a reset keep-alive connection (a loaded machine's race) just polls again.
  const attempt = async () => {
    try {
      return await check();
    } catch (error) {
      if (error instanceof TypeError && error.message === 'fetch failed') return false;
      throw error;
    }
  };
  while (!(await attempt())) {
    if (Date.now() - began > timeoutMs) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await sleep(100);
  }
  return Date.now();
}

interface Attempt {
  began: number;
  ended: number;
  status: number;
  code: string | null;
  retryAfter: string | null;
  tag: string;
  ids: string[];
}

const PER_WRITE = 3;

/** One governed write of PER_WRITE memories in one delta, each content carrying the write's tag. */
async function write(t: Tenant, tag: string): Promise<Attempt> {
  const began = Date.now();
  const memories = Array.from({ length: PER_WRITE }, (_, i) => ({
    content: `${tag} item ${i}: the outage drill wrote this.`,
  }));
  const reply = await t.post('/v1/memories', { memories });
  const ids = reply.status === 201 ? (reply.body.memories as { id: string }[]).map((m) => m.id) : [];
  return {
    began,
    ended: Date.now(),
    status: reply.status,
    code: reply.body?.error?.code ?? null,
    retryAfter: reply.headers.get('retry-after'),
    tag,
    ids,
  };
}

describe('engine faults', function () {
  this.timeout(900_000);
  after(() => graphSteady());

  it('Neo4j killed under concurrent writes: fast 503s, restarted by the supervisor, writes resume, nothing lost or half-written', async () => {
    const t = await newTenant(0);
    const { supervisor, pid } = ownEngine('neo4j');
    const restartsBefore = supervisor.status().restarts;
    const attempts: Attempt[] = [];
    let stop = false;
    let n = 0;
    const writer = async (w: number) => {
      while (!stop) {
        const attempt = await write(t, `fault-w${w}-${n++}`);
        attempts.push(attempt);
        if (attempt.status !== 201) await sleep(100);
      }
    };
    const writers = [0, 1, 2, 3].map((w) => writer(w));
    await sleep(3_000);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    try {
      // Recovered: a write that began after the kill and after the last 503 succeeded, and 20 more since.
      await waitUntil(
        'writes succeeding again after the restart',
        () => {
          const after = attempts.filter((a) => a.began > killedAt);
          const last503 = Math.max(0, ...after.filter((a) => a.status === 503).map((a) => a.ended));
          return last503 > 0 && after.filter((a) => a.status === 201 && a.began > last503).length >= 20;
        },
        600_000,
      ); // the restart itself takes seconds on an idle machine and minutes on a loaded one
    } finally {
      stop = true;
      await Promise.all(writers);
    }

    const afterKill = attempts.filter((a) => a.ended > killedAt);
    const unavailable = afterKill.filter((a) => a.status === 503);
    // A request in flight at the kill is timed from the kill: that is when its wait for an answer became an outage.
    const waited = (a: Attempt) => a.ended - Math.max(a.began, killedAt);
    const firstUnavailable = Math.min(...unavailable.map((a) => a.ended));
    const lastUnavailable = Math.max(...unavailable.map((a) => a.ended));
    const recovered = Math.min(
      ...afterKill.filter((a) => a.status === 201 && a.began > lastUnavailable).map((a) => a.ended),
    );
    const restartedAt = Date.parse(supervisor.status().since);
    const acknowledged = attempts.filter((a) => a.status === 201);
    const sorted = unavailable.map(waited).sort((x, y) => x - y);
    const figures = {
      first_503_after_kill_ms: firstUnavailable - killedAt,
      outage_ms: lastUnavailable - killedAt,
      neo4j_restart_ms: restartedAt - killedAt,
      recovery_after_restart_ms: recovered - restartedAt,
      recovery_after_kill_ms: recovered - killedAt,
      answers_503: unavailable.length,
      median_503_ms: sorted[Math.floor(sorted.length / 2)],
      slowest_503_ms: sorted[sorted.length - 1],
      answers_503_over_2s: sorted.filter((ms) => ms > 2_000).length,
      // Every answer after the kill, success or 503 (issue 27 asks each within 2 s; a figure, not asserted).
      slowest_answer_ms: Math.max(...afterKill.map(waited)),
      answers_over_2s: afterKill.filter((a) => waited(a) > 2_000).length,
      answers_after_kill: afterKill.length,
      // When the slow answers came (ms after the kill) and how long each waited: at the kill, during
      // the outage or at the restart tell apart a stuck connection from a cold engine.
      slow_answers: afterKill
        .filter((a) => waited(a) > 2_000)
        .map((a) => ({ status: a.status, began_ms: a.began - killedAt, waited_ms: waited(a) })),
      writes_acknowledged: acknowledged.length,
      writes_acknowledged_after_kill: acknowledged.filter((a) => a.ended > killedAt).length,
    };
    process.stdout.write(`      figures: ${JSON.stringify(figures)}\n`);

    // During the outage: only 201 or 503 graph_unavailable with Retry-After, each within 2 s.
    for (const a of afterKill) {
      assert.ok(a.status === 201 || a.status === 503, `unexpected ${a.status} ${a.code} after the kill`);
      if (a.status === 503) {
        assert.equal(a.code, 'graph_unavailable');
        assert.ok(a.retryAfter, '503 without Retry-After');
      }
    }
    assert.equal(
      figures.answers_503_over_2s,
      0,
      `${figures.answers_503_over_2s} answers of 503 took over 2 s (slowest ${figures.slowest_503_ms} ms)`,
    );
    assert.ok(
      figures.first_503_after_kill_ms <= 2_000,
      `first 503 came ${figures.first_503_after_kill_ms} ms after the kill`,
    );
    assert.equal(supervisor.status().state, 'running');
    assert.equal(supervisor.status().restarts, restartsBefore + 1);
    assert.ok(
      figures.recovery_after_restart_ms <= 30_000,
      `writes resumed ${figures.recovery_after_restart_ms} ms after the restart`,
    );

    // Every acknowledged write is readable, through the API (a sample) and in the graph (all).
    const ids = acknowledged.flatMap((a) => a.ids);
    const graph = harness().service.deps.graph;
    const [found] = await graph.read((tx) =>
      tx.runText('MATCH (n:Knowledge) WHERE n.id IN $ids RETURN count(n) AS n', { ids }),
    );
    assert.equal(found?.n, ids.length, 'every acknowledged memory is in the graph');
    for (const a of acknowledged.filter((_, i) => i % 25 === 0)) {
      assert.equal((await t.get(`/v1/memories/${a.ids[0]}`)).status, 200);
    }
    // All or nothing: every delta of the project holds all PER_WRITE memories of one write.
    const deltas = await graph.read((tx) =>
      tx.runText(
        `MATCH (:TenantProject {id: $p})<-[:IN_PROJECT]-(d:Delta) OPTIONAL MATCH (d)-[:CREATED]->(n)
       RETURN d.id AS delta, count(n) AS created, collect(DISTINCT split(n.content, ' ')[0]) AS tags`,
        { p: t.projectId },
      ),
    );
    for (const d of deltas) {
      assert.equal(d.created, PER_WRITE, `delta ${String(d.delta)} holds ${String(d.created)} memories`);
      assert.equal((d.tags as string[]).length, 1);
    }
    const [orphans] = await graph.read((tx) =>
      tx.runText('MATCH (n:Knowledge {project_id: $p}) WHERE NOT (:Delta)-[:CREATED]->(n) RETURN count(n) AS n', {
        p: t.projectId,
      }),
    );
    assert.equal(orphans?.n, 0);
    assert.ok(deltas.length >= acknowledged.length);
    process.stdout.write(
      `      verified: ${JSON.stringify({ writes_verified: ids.length / PER_WRITE, deltas_in_graph: deltas.length })}\n`,
    );
  });

  it('Temporal killed during a running loop: starts answer 503 fast, status reads fall back to the graph, the loop completes once', async () => {
    // This test is about Temporal: it starts once the graph restarted by the test above is steady.
    await graphSteady();
    const t = await newTenant(10_000);
    const doc = await createDocument(t, longStory(40));
    const body = {
      kind: 'graph_extraction',
      goal: 'survive a Temporal outage',
      context: { source_ids: [doc] },
      schema: { shape_ids: [GENERAL_SHAPE_ID] },
      loop: { max_iterations: 5, quality_threshold: 1 },
    };
    const started = await t.post('/v1/loops', body);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const loopId = started.body.loop_id as string;
    await waitUntil(
      'a first checkpoint',
      async () => (await t.get(`/v1/loops/${loopId}/checkpoints`)).body.checkpoints?.length > 0,
      300_000,
    );

    const { supervisor, pid } = ownEngine('temporal');
    const restartsBefore = supervisor.status().restarts;
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    // at: when the start was sent, in ms after the kill (so a slow one can be placed in the outage).
    const starts: { at: number; ms: number; status: number; code: string | null }[] = [];
    let sawFallback = false;
    while (supervisor.status().state !== 'running' || supervisor.status().restarts === restartsBefore) {
      const began = Date.now();
      const reply = await t.post('/v1/loops', body);
      starts.push({
        at: began - killedAt,
        ms: Date.now() - began,
        status: reply.status,
        code: reply.body?.error?.code ?? null,
      });
      const status = await t.get(`/v1/loops/${loopId}`);
      assert.equal(status.status, 200, JSON.stringify(status.body));
      if (status.headers.get('x-loop-status-source') === 'graph') {
        sawFallback = true;
        assert.equal(status.body.status, 'running');
        assert.equal(status.body.stop_reason, null, 'the graph answer has every field of the Temporal one');
      }
      if (Date.now() - killedAt > 60_000) throw new Error('Temporal was not restarted within 60 s');
      await sleep(200);
    }
    const restartedAt = Date.now();
    const refused = starts.filter((s) => s.status === 503);
    process.stdout.write(
      `      outage: ${JSON.stringify({ starts_tried: starts.length, refused_starts: refused.length, slowest_start_ms: Math.max(...starts.map((s) => s.ms)), temporal_restart_ms: restartedAt - killedAt })}\n`,
    );
    assert.ok(refused.length > 0, 'no loop start was refused during the outage');
    // The restarted server answers a moment before the supervisor's readiness check reports it: a
    // start from then on is accepted. So the starts are refusals, then (at most) acceptances.
    const firstAccepted = starts.findIndex((s) => s.status === 202);
    const outage = firstAccepted < 0 ? starts : starts.slice(0, firstAccepted);
    for (const s of outage) {
      assert.equal(s.status, 503, `a start during the outage answered ${s.status}`);
      assert.equal(s.code, 'loop_dispatch_unavailable', JSON.stringify(s));
      assert.ok(s.ms <= 2_000, `a refused start took ${s.ms} ms; every start: ${JSON.stringify(starts)}`);
    }
    for (const s of firstAccepted < 0 ? [] : starts.slice(firstAccepted)) {
      assert.equal(s.status, 202, 'once a start is accepted again, Temporal is back: no later refusal');
    }
    assert.ok(sawFallback, 'loop status never came from the graph during the outage');

    const final = await waitForLoop(t, loopId, 180_000);
    const completedAt = Date.now();
    assert.equal(final.status, 'completed', JSON.stringify(final));
    // History reads answer 503 until the client has reconnected to the restarted server.
    let checkpoints: { iteration: number }[] = [];
    await waitUntil(
      'checkpoints readable',
      async () => {
        const reply = await t.get(`/v1/loops/${loopId}/checkpoints`);
        if (reply.status === 200) checkpoints = reply.body.checkpoints;
        return reply.status === 200;
      },
      60_000,
    );
    // Each iteration checkpointed exactly once, in order (the loop may stop early on no progress).
    const iterations = checkpoints.map((c) => c.iteration);
    assert.ok(iterations.length >= 1);
    assert.deepEqual(
      iterations,
      iterations.map((_, i) => i + 1),
      'iterations not repeated',
    );
    // The loop's record says completed once finishLoop has written it; Temporal records the activity's completion
    // (and the workflow's) when the worker's report reaches the restarted server, a moment later.
    let events: Awaited<ReturnType<typeof allEvents>> = [];
    await waitUntil(
      'the workflow completed in its history',
      async () => {
        events = await allEvents(t, loopId, 1000);
        return events.some((e) => e.type === 'workflow_execution_completed');
      },
      60_000,
    );
    const finished = events.filter((e) => e.activity_name === 'finishLoop' && e.type === 'activity_task_completed');
    assert.equal(finished.length, 1, `finishLoop completions: ${JSON.stringify(events.map((e) => e.type))}`);
    const credits = (await t.get('/v1/credits')).body;
    const settles = credits.entries.filter(
      (e: { kind: string; loop_id: string }) => e.kind === 'settle' && e.loop_id === loopId,
    );
    assert.equal(settles.length, 1, 'credits settled once');
    // The refused starts reserved nothing: only this loop's reservation (and those of starts accepted
    // once Temporal was back) was ever taken.
    const accepted = firstAccepted < 0 ? 0 : starts.length - firstAccepted;
    const reserves = credits.entries.filter((e: { kind: string }) => e.kind === 'reserve');
    assert.equal(reserves.length, 1 + accepted, `reservations: ${JSON.stringify(reserves)}`);
    process.stdout.write(
      `      loop completed ${completedAt - killedAt} ms after the kill; worker ${JSON.stringify(harness().service.worker?.status())}\n`,
    );
  });
});
