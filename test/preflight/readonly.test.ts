import assert from 'node:assert/strict';
import { newTenant, type Reply } from '../support/api.js';
import type { Graph, TxMeta } from '../../src/db/graph.js';
import { runChecks } from '../../src/preflight/checks.js';
import { audit, createTestShape, entity, graph, snapshot, stage, type FindingBody } from './support.js';
import { waitForMentions } from '../support/mentions.js';

/** Records every transaction the service opens while work runs, with its access mode and metadata. */
async function recordTransactions<T>(
  g: Graph,
  work: () => Promise<T>,
): Promise<{ result: T; calls: { mode: 'read' | 'write'; meta: TxMeta }[] }> {
  const calls: { mode: 'read' | 'write'; meta: TxMeta }[] = [];
  const read = g.read.bind(g);
  const write = g.write.bind(g);
  const writeCarrying = g.writeCarrying.bind(g);
  g.read = ((fn, meta = {}) => {
    calls.push({ mode: 'read', meta });
    return read(fn, meta);
  }) as Graph['read'];
  g.write = ((fn, meta = {}) => {
    calls.push({ mode: 'write', meta });
    return write(fn, meta);
  }) as Graph['write'];
  g.writeCarrying = ((check, fn, meta = {}) => {
    calls.push({ mode: 'write', meta });
    return writeCarrying(check, fn, meta);
  }) as Graph['writeCarrying'];
  try {
    return { result: await work(), calls };
  } finally {
    g.read = read;
    g.write = write;
    g.writeCarrying = writeCarrying;
  }
}

describe('preflight audits are read-only', () => {
  it('audits leave nodes, relationships and the delta record exactly as they were', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    await t.post('/v1/memories', {
      content: 'Ada works at Acme.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'works at',
      object: 'Acme',
    });
    const staged = await t.post('/v1/memories', {
      content: 'Ada works at Globex.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'works at',
      object: 'Globex',
      apply: false,
    });
    const blocked = await stage(t, (d) => {
      const p = entity(d, t, shape, 'Part', 'p');
      d.createRelationship(p, 'PART_OF', p);
    });
    // The mention worker links the committed memory's terms after its write (Term nodes, MENTIONS): done first, so
    // the snapshot compares what the audits could have touched (it once linked them during the audits).
    await waitForMentions(t.projectId);
    const before = await snapshot(t.projectId);
    for (const id of [staged.body.delta_id, blocked, staged.body.delta_id])
      assert.equal((await audit(t, id)).status, 200);
    assert.deepEqual(await snapshot(t.projectId), before);
  });

  it('under concurrent write traffic, audits open only READ transactions and change nothing of their project', async () => {
    const t = await newTenant(0);
    const busy = await newTenant(0);
    const shape = await createTestShape(t);
    const deltaId = await stage(t, (d) => {
      for (let i = 0; i < 20; i += 1) {
        const part = entity(d, t, shape, 'Part', `part ${i}`);
        d.createRelationship(part, 'PART_OF', part);
      }
    });
    const baseline = await audit(t, deltaId);
    const before = await snapshot(t.projectId);
    const { result, calls } = await recordTransactions(graph(), async () => {
      const audits = Array.from({ length: 12 }, (_, i) => audit(t, deltaId, { 'X-Request-Id': `ro-audit-${i}` }));
      const writes = Array.from({ length: 12 }, (_, i) =>
        busy.post(
          '/v1/memories',
          { content: `Busy write ${i}.`, subject: 'Traffic' },
          { headers: { 'X-Request-Id': `ro-write-${i}` } },
        ),
      );
      return Promise.all([...audits, ...writes]);
    });
    assert.ok(
      result.every((r) => r.status === 200 || r.status === 201),
      JSON.stringify(result.map((r) => r.status)),
    );
    // The exact checks answer the same under load. The duplicates check by meaning may be skipped by any
    // one audit (the engine slow or briefly down: degraded says so), so its findings are compared only
    // between audits that both had it.
    const exactPart = (body: Reply['body']) => {
      const { request_id: _r, degraded: _d, findings, ...rest } = body;
      return { ...rest, findings: findings.filter((f: FindingBody) => !String(f.evidence.rule).startsWith('near_')) };
    };
    for (const r of result.slice(0, 12)) {
      assert.deepEqual(exactPart(r.body), exactPart(baseline.body));
      if (r.body.degraded.length === 0 && baseline.body.degraded.length === 0)
        assert.deepEqual(r.body.findings, baseline.body.findings);
    }
    const auditCalls = calls.filter((c) => String(c.meta.request_id ?? '').startsWith('ro-audit-'));
    // One READ for the exact checks per audit, and (recall by meaning) one READ of the neighbours.
    assert.equal(auditCalls.filter((c) => c.meta.purpose === 'preflight:audit').length, 12);
    assert.ok(
      auditCalls.every(
        (c) => c.mode === 'read' && ['preflight:audit', 'preflight:meaning'].includes(String(c.meta.purpose)),
      ),
    );
    assert.equal(calls.filter((c) => c.mode === 'write' && c.meta.purpose === 'preflight:audit').length, 0);
    assert.ok(
      calls.some((c) => c.mode === 'write' && String(c.meta.request_id ?? '').startsWith('ro-write-')),
      'the other traffic did write',
    );
    assert.deepEqual(await snapshot(t.projectId), before);
  });

  it('a check cannot write: the audit transaction is READ and Neo4j refuses a writing statement', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'Target.', apply: false });
    const evil = {
      name: 'evil',
      text: "MATCH (d:Delta {id: $delta_id}) SET d.status = 'applied' RETURN 'evil' AS check, 'info' AS severity, 'x' AS message, [] AS node_ids, [] AS relationship_ids, {rule: 'x'} AS evidence",
    };
    await assert.rejects(
      graph().read((tx) => runChecks(tx, staged.body.delta_id, t.projectId, new Date().toISOString(), [evil])),
      /read|access mode/i,
    );
    assert.equal((await t.get(`/v1/deltas/${staged.body.delta_id}`)).body.delta.status, 'staged');
  });
});
