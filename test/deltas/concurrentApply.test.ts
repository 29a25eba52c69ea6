// A staged delta applied while a correction of the same memory commits: the apply's guard judges the delta
// against the graph, then its statements write. Before apply locked what its delta touches, a correction
// committing between the two went unseen: a staged delete removed the memory but not the fact edge the
// correction had just made, which was left pointing at nothing (found by the chaos run in CI; this test
// failed on its first round without the lock). Now the correction either commits first, and the guard refuses the stale delta (409), or waits for
// the apply and finds its memory gone (404).
import assert from 'node:assert/strict';
import { call, newTenant, type Reply, type Tenant } from '../support/api.js';
import { graph } from '../preflight/support.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { fact, memory } from '../governance/support.js';

const ROUNDS = 12;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Committed fact edges of the memory, and whether the memory is still committed. */
async function factState(id: string): Promise<{ edges: number; memory: boolean }> {
  const [row] = await graph().read((tx) =>
    tx.runText(
      'OPTIONAL MATCH (m:Memory {id: $id}) WHERE NOT m:Pending ' +
        'RETURN m IS NOT NULL AS memory, COUNT { MATCH (:Entity)-[r]->(:Entity) WHERE r.memory_id = $id AND r.pending IS NULL } AS edges',
      { id },
    ),
  );
  return { edges: Number(row?.edges), memory: row?.memory === true };
}

/** One round: a memory, a staged delete of it, then its apply and an applied correction sent `gap` ms apart. */
async function round(t: Tenant, gap: number): Promise<{ applied: Reply; corrected: Reply; id: string }> {
  const created = await memory(t, fact('Ines', 'works at', 'Acme', { valid_from: '2020-01-01T00:00:00Z' }));
  const staged = await call('DELETE', `/v1/memories/${created.id}?apply=false`, undefined, { key: t.key });
  assert.equal(staged.status, 200, JSON.stringify(staged.body));
  await waitForEmbeddings(t.projectId);
  const applying = call('POST', `/v1/deltas/${staged.body.delta_id}/apply`, {}, { key: t.key });
  await pause(gap);
  const corrected = await call('PATCH', `/v1/memories/${created.id}`, { object: 'Globex' }, { key: t.key });
  return { applied: await applying, corrected, id: created.id };
}

describe('a staged delta applied while its memory is corrected', function () {
  this.timeout(300_000);

  it('either the apply is refused as stale or the correction finds the memory gone; no fact edge is left behind', async () => {
    const t = await newTenant(0);
    const seen = new Set<string>();
    for (let i = 0; i < ROUNDS; i += 1) {
      const { applied, corrected, id } = await round(t, (i * 15) % 120);
      const state = await factState(id);
      seen.add(`${applied.status}/${corrected.status}`);
      if (applied.status === 200) {
        assert.equal(corrected.status, 404, JSON.stringify(corrected.body));
        assert.deepEqual(state, { edges: 0, memory: false });
      } else {
        assert.equal(applied.status, 409, JSON.stringify(applied.body));
        assert.equal(corrected.status, 200, JSON.stringify(corrected.body));
        assert.deepEqual(state, { edges: 1, memory: true });
      }
    }
    console.log(`      outcomes (apply/correction): ${[...seen].sort().join(', ')}`);
  });
});
