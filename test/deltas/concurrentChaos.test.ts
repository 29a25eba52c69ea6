// Six clients correct, delete, close, supersede, review and revert a handful of memories at random for a
// minute. Whatever interleaving they meet, no answer is a 5xx and the graph stays whole: no staged node
// outside a staged delta, no fact edge left pointing at a memory that is gone, no validity that ends before
// it starts. Before the locks of docs/deltas.md ("Concurrent writes"), runs like this one left one to four
// such fact edges a minute and answered 500 to a correction racing a delete.
import assert from 'node:assert/strict';
import { call, newTenant, type Reply, type Tenant } from '../support/api.js';
import { graph } from '../preflight/support.js';
import { fact, memory } from '../governance/support.js';

const CLIENTS = 6;
const SECONDS = 60;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Problems in the project's graph that no sequence of acknowledged writes may leave. */
async function brokenGraph(t: Tenant): Promise<string[]> {
  const rows = await graph().read((tx) =>
    tx.runText(
      `MATCH (n:Pending {project_id: $p})
       WHERE NOT EXISTS { MATCH (d:Delta {id: n.delta_id}) WHERE d.status = 'staged' }
       RETURN 'staged node ' + n.id + ' outside a staged delta' AS problem
       UNION ALL
       MATCH (m:Memory {project_id: $p})
       WHERE NOT m:Pending AND m.valid_from IS NOT NULL AND m.valid_to IS NOT NULL AND m.valid_to < m.valid_from
       RETURN 'memory ' + m.id + ' ends before it starts' AS problem
       UNION ALL
       MATCH (:Entity {project_id: $p})-[r]->(:Entity)
       WHERE r.memory_id IS NOT NULL AND r.pending IS NULL
         AND NOT EXISTS { MATCH (m:Memory {id: r.memory_id}) WHERE NOT m:Pending }
       RETURN 'fact edge ' + r.id + ' of memory ' + r.memory_id + ', which is gone' AS problem`,
      { p: t.projectId },
    ),
  );
  return rows.map((r) => String(r.problem));
}

describe('random concurrent writes of a few memories', function () {
  this.timeout(SECONDS * 1000 + 120_000);

  it('answer no 5xx and leave no broken graph', async () => {
    const t = await newTenant(0);
    const as = { key: t.key };
    const ids: string[] = [];
    const people = ['Ada', 'Bo', 'Cy'];
    const employers = ['Acme', 'Globex', 'Initech'];
    for (const person of people) ids.push((await memory(t, fact(person, 'works at', pick(employers)))).id);
    const deltaIds: string[] = [];
    const serverErrors: string[] = [];
    const step = async (): Promise<void> => {
      const id = pick(ids);
      const apply = Math.random() < 0.6;
      const roll = Math.random();
      let reply: Reply;
      if (roll < 0.25) {
        const body = pick<Record<string, unknown>>([
          { content: `Note ${Math.random()}` },
          { valid_to: '2030-01-01T00:00:00Z' },
          { object: pick(employers) },
          { predicate: pick(['works at', 'lives in']) },
        ]);
        reply = await call('PATCH', `/v1/memories/${id}`, { ...body, apply }, as);
      } else if (roll < 0.35) reply = await call('DELETE', `/v1/memories/${id}?apply=${apply}`, undefined, as);
      else if (roll < 0.45) reply = await call('POST', `/v1/memories/${id}/close`, { apply }, as);
      else if (roll < 0.55)
        reply = await call('POST', `/v1/memories/${id}/supersede`, { by: pick(ids), reason: 'newer', apply }, as);
      else if (roll < 0.7 && deltaIds.length > 0)
        reply = await call('POST', `/v1/deltas/${pick(deltaIds)}/${pick(['apply', 'reject', 'revert'])}`, {}, as);
      else if (roll < 0.8) {
        reply = await call('POST', '/v1/memories', { ...fact(pick(people), 'works at', pick(employers)), apply }, as);
        if (reply.status === 201) ids.push(reply.body.id as string);
      } else reply = await call('POST', '/v1/memories/search', { query: 'works at Acme' }, as);
      if (typeof reply.body?.delta_id === 'string') deltaIds.push(reply.body.delta_id);
      if (reply.status >= 500) serverErrors.push(`${reply.status} ${JSON.stringify(reply.body)}`);
    };
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < deadline) await step();
      }),
    );
    assert.deepEqual(serverErrors, []);
    assert.ok(deltaIds.length > 50, `only ${deltaIds.length} writes were acknowledged`);
    assert.deepEqual(await brokenGraph(t), []);
  });
});
