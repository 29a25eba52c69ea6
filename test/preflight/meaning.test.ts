import assert from 'node:assert/strict';
import {
  namedTokens,
  nearDuplicateThreshold,
  nearPairsInDelta,
  sameNamedThings,
  changedInPlace,
} from '../../src/preflight/meaning.js';
import { cosine } from '../../src/search/meaning.js';
import { newTenant, type Tenant } from '../support/api.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { harness } from '../support/harness.js';
import { audit, commit, createTestShape, entity, findingsOf, stage } from './support.js';

const engine = (name: 'embeddings' | 'embeddings-queries' = 'embeddings') => {
  const e = harness().endpoints.supervisors.find((s) => s.name === name);
  if (!e) throw new Error(`the embedded engine ${name} is not supervised by the harness`);
  return e;
};
/** Both engines: a small delta's audit embeds on the questions' engine, and on the backlog's when that is down. */
const engines = ['embeddings', 'embeddings-queries'] as const;

async function memories(t: Tenant, contents: string[], apply = true): Promise<{ ids: string[]; delta_id: string }> {
  const reply = await t.post('/v1/memories', { memories: contents.map((content) => ({ content })), apply });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return { ids: (reply.body.memories as { id: string }[]).map((m) => m.id), delta_id: reply.body.delta_id };
}

const near = (f: { evidence: Record<string, unknown> }) => String(f.evidence.rule).startsWith('near_content');

describe('Preflight duplicates by meaning (pure)', () => {
  it('pairs of a delta are compared once, lower id first, and only at or above the threshold', () => {
    const pairs = nearPairsInDelta(
      [
        { id: 'm3', name: '', vector: [1, 0, 0] },
        { id: 'm1', name: '', vector: [0.99, 0.141, 0] },
        { id: 'm2', name: '', vector: [0, 1, 0] },
      ],
      0.93,
    );
    assert.deepEqual(
      pairs.map((p) => [p.a.id, p.b.id, p.similarity]),
      [['m1', 'm3', 0.99]],
    );
    assert.equal(cosine([1, 0], [0, 0]), 0, 'a zero vector is similar to nothing');
  });

  it('memories that name different things (versions, numbers, names) are never near-duplicates; a restatement keeps them', () => {
    assert.deepEqual([...namedTokens('The build uses Node 20. Ada knows Alpha.')].sort(), ['20', 'alpha', 'node']);
    assert.equal(sameNamedThings('The build uses Node 20.', 'The build uses Node 22.'), false);
    assert.equal(sameNamedThings('Ada knows Alpha.', 'Ada knows Beta.'), false);
    assert.equal(sameNamedThings('The Berlin office closes at 7 pm.', 'The Berlin office opens at 8 am.'), false);
    assert.equal(
      sameNamedThings(
        'Salaries are paid by Acme Payroll on the 25th of each month.',
        'Acme Payroll pays our wages on the 25th every month.',
      ),
      true,
    );
  });

  it('the same words in another order, or one word swapped for another, are a changed fact, never a near-duplicate', () => {
    assert.equal(changedInPlace('Ada prefers green tea.', 'Ada prefers black tea.'), true);
    assert.equal(
      changedInPlace('Ada prefers green tea\nAda prefers green tea.', 'Ada prefers black tea\nAda prefers black tea.'),
      true,
      'the swap recurs where the name repeats the content',
    );
    assert.equal(changedInPlace('Use spaces, not tabs.', 'Use tabs, not spaces.'), true);
    assert.equal(
      changedInPlace('The team meets on Monday.', 'The team meets on Mondays.'),
      false,
      'a form of the word',
    );
    assert.equal(changedInPlace('Salaries are paid by Acme Payroll.', 'Acme Payroll pays our salaries.'), false);
    assert.equal(changedInPlace('Same text.', 'Same text.'), false);
  });

  it('the threshold is 0.96 for e5 models, 0.9 for others, and GKS_NEAR_DUPLICATE_SIMILARITY overrides it (a bad value is named)', () => {
    assert.equal(nearDuplicateThreshold('multilingual-e5-small', {}), 0.96);
    assert.equal(nearDuplicateThreshold('text-embedding-3-small', {}), 0.9);
    assert.equal(nearDuplicateThreshold('x', { GKS_NEAR_DUPLICATE_SIMILARITY: '0.8' }), 0.8);
    assert.throws(
      () => nearDuplicateThreshold('x', { GKS_NEAR_DUPLICATE_SIMILARITY: '2' }),
      /GKS_NEAR_DUPLICATE_SIMILARITY/,
    );
  });
});

describe('Preflight duplicates by meaning (real embedding engine, real Neo4j)', function () {
  this.timeout(240_000);

  it('a new memory that says a committed one in other words is a warning naming both and their similarity', async () => {
    const t = await newTenant(0);
    const old = await memories(t, [
      'Salaries are paid by Acme Payroll on the 25th of each month.',
      'The build server runs Ubuntu 22.04.',
    ]);
    await waitForEmbeddings(t.projectId);
    const staged = await memories(t, ['Acme Payroll pays our wages on the 25th every month.'], false);
    const found = (await findingsOf(t, staged.delta_id, 'duplicates')).filter(near);
    assert.equal(found.length, 1, JSON.stringify(found));
    const f = found[0]!;
    assert.equal(f.severity, 'warning');
    assert.equal(f.evidence.rule, 'near_content');
    assert.equal(f.evidence.committed_node_id, old.ids[0]);
    assert.equal(f.evidence.pending_node_id, staged.ids[0]);
    assert.deepEqual(f.node_ids, [old.ids[0]!, staged.ids[0]!].sort());
    const similarity = Number(f.evidence.similarity);
    assert.ok(similarity >= 0.96 && similarity <= 1, String(similarity));
    assert.ok(f.message.includes(old.ids[0]!) && f.message.includes(staged.ids[0]!), f.message);
    assert.ok(f.message.includes(similarity.toFixed(4)), f.message);
    const verdict = await audit(t, staged.delta_id);
    assert.equal(verdict.body.disposition, 'ReviewRequired');
    assert.deepEqual(verdict.body.degraded, []);
  });

  it('a related but different fact, or a memory of another project, is no near-duplicate', async () => {
    const t = await newTenant(0);
    const other = await newTenant(0);
    await memories(t, ['The Berlin office closes at 7 pm.']);
    await memories(other, ['Acme Payroll pays our wages on the 25th every month.']);
    await waitForEmbeddings(t.projectId);
    await waitForEmbeddings(other.projectId);
    const staged = await memories(
      t,
      ['The Berlin office opens at 8 am.', 'Salaries are paid by Acme Payroll on the 25th of each month.'],
      false,
    );
    const found = (await findingsOf(t, staged.delta_id, 'duplicates')).filter(near);
    assert.deepEqual(found, []);
  });

  it('two new memories of one delta saying the same thing in other words are one warning; an exact repeat is left to same_content', async () => {
    const t = await newTenant(0);
    const staged = await memories(
      t,
      [
        'Customer refunds over 500 euros need a manager approval.',
        'A manager must approve any customer refund above 500 euros.',
        'Customer refunds over 500 euros need a manager approval',
      ],
      false,
    );
    const found = await findingsOf(t, staged.delta_id, 'duplicates');
    const [a, b, c] = staged.ids as [string, string, string];
    const exact = found.filter((f) => f.evidence.rule === 'same_content_in_delta');
    assert.equal(exact.length, 1, JSON.stringify(found));
    assert.deepEqual(exact[0]!.node_ids, [a, c].sort());
    const meaning = found.filter(near);
    assert.ok(
      meaning.every((f) => f.evidence.rule === 'near_content_in_delta'),
      JSON.stringify(meaning),
    );
    assert.ok(
      meaning.some((f) => f.node_ids.includes(b)),
      JSON.stringify(found),
    );
    assert.ok(!meaning.some((f) => f.node_ids.includes(a) && f.node_ids.includes(c)), 'not warned twice');
  });

  it('a new entity near a committed one of the same type by meaning is proposed as the same (info), never merged; another type is not', async () => {
    const t = await newTenant(0);
    const shape = await createTestShape(t);
    let acme = '';
    await commit(t, (d) => {
      acme = entity(d, t, shape, 'Team', 'Acme Payroll');
    });
    await waitForEmbeddings(t.projectId);
    let copy = '';
    let otherType = '';
    const deltaId = await stage(t, (d) => {
      copy = entity(d, t, shape, 'Team', 'ACME payroll services');
      otherType = entity(d, t, shape, 'Part', 'Acme Payroll part');
    });
    const found = (await findingsOf(t, deltaId, 'duplicates')).filter((f) => f.evidence.rule === 'near_entity');
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0]!.severity, 'info');
    assert.equal(found[0]!.evidence.committed_node_id, acme);
    assert.equal(found[0]!.evidence.pending_node_id, copy);
    assert.ok(Number(found[0]!.evidence.similarity) >= 0.97, JSON.stringify(found[0]));
    assert.ok(!found.some((f) => f.node_ids.includes(otherType)));
    const [row] = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (e:Entity {id: $id}) RETURN e:Pending AS pending', { id: copy }),
    );
    assert.equal(row?.pending, true, 'the proposal merges nothing');
  });

  it("a small delta's audit compares by meaning on the questions' engine: the backlog's engine down, it still warns", async () => {
    const t = await newTenant(0);
    await memories(t, ['Salaries are paid by Acme Payroll on the 25th of each month.']);
    await waitForEmbeddings(t.projectId);
    const staged = await memories(t, ['Acme Payroll pays our wages on the 25th every month.'], false);
    await engine('embeddings').stop();
    try {
      const reply = await audit(t, staged.delta_id);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(reply.body.degraded, []);
      const found = (reply.body.findings as { evidence: Record<string, unknown> }[]).filter(near);
      assert.equal(found.length, 1, JSON.stringify(reply.body));
    } finally {
      await engine('embeddings').start();
    }
  });

  it('while the engines are down the audit answers at once without meaning, saying degraded', async () => {
    const t = await newTenant(0);
    await memories(t, ['Salaries are paid by Acme Payroll on the 25th of each month.']);
    await waitForEmbeddings(t.projectId);
    const staged = await memories(t, ['Acme Payroll pays our wages on the 25th every month.'], false);
    for (const name of engines) await engine(name).stop();
    try {
      const began = Date.now();
      const reply = await audit(t, staged.delta_id);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.ok(Date.now() - began < 5_000, `answered in ${Date.now() - began} ms`);
      assert.deepEqual(reply.body.degraded, ['semantic']);
      assert.equal(
        (reply.body.findings as { evidence: Record<string, unknown> }[]).filter(near).length,
        0,
        JSON.stringify(reply.body),
      );
    } finally {
      for (const name of engines) await engine(name).start();
    }
  });
});
