// Six clients correct, delete, close, supersede, review and revert a handful of memories at random for a
// minute. Whatever interleaving they meet, no answer is a 5xx and the graph stays whole: no staged node
// outside a staged delta, no fact edge left pointing at a memory that is gone, no validity that ends before
// it starts. Before the locks of docs/deltas.md ("Concurrent writes"), runs like this one left one to four
// such fact edges a minute and answered 500 to a correction racing a delete.
import assert from 'node:assert/strict';
import { call, newTenant, type Reply } from '../support/api.js';
import { brokenGraph } from '../support/brokenGraph.js';
import { fact, memory } from '../governance/support.js';

const CLIENTS = 6;
const SECONDS = 60;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

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
