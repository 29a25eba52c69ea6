// A chaos run of every correction at once, for hunting races (npm run chaos; not part of npm test, since it is
// random and long): six clients create, correct, delete, close and supersede memories, correct, merge and delete
// entities, index, re-index and delete documents, and apply, reject and revert deltas, half staged and half
// applied at once, for CHAOS_SECONDS (default 120). Then no answer may have been a 5xx and the graph must be
// whole. Each failure prints the service's error lines for its request. Runs of it found the races that
// docs/deltas.md ("Concurrent writes") lists for documents, apply and revert; concurrentChaos.test.ts is the
// one-minute memory-only run that npm test keeps.
import assert from 'node:assert/strict';
import { call, newTenant, type Tenant } from '../support/api.js';
import { graph } from '../preflight/support.js';
import { fact } from '../governance/support.js';
import { captureLogs } from '../support/harness.js';
import { brokenGraph } from '../support/brokenGraph.js';
import { report, runClients, type ChaosOp } from './clients.js';

const CLIENTS = 6;
const SECONDS = Number(process.env.CHAOS_SECONDS ?? 120);
const people = ['Ada', 'Bo', 'Cy', 'Di'];
const employers = ['Acme', 'Globex', 'Initech'];
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

async function entityIds(t: Tenant): Promise<string[]> {
  const rows = await graph().read((tx) =>
    tx.runText('MATCH (e:Entity {project_id: $p}) WHERE NOT e:Pending RETURN e.id AS id', { p: t.projectId }),
  );
  return rows.map((r) => String(r.id));
}

describe('chaos: every correction at once', function () {
  this.timeout(SECONDS * 1000 + 300_000);

  it('answers no 5xx and leaves no broken graph', async () => {
    const logs = captureLogs();
    const t = await newTenant(0);
    const as = { key: t.key };
    const memories: string[] = [];
    const documents: string[] = [];
    const deltas: string[] = [];
    for (const person of people)
      memories.push((await call('POST', '/v1/memories', fact(person, 'works at', pick(employers)), as)).body.id);
    const someMemory = () => pick(memories);
    const someDocument = () => (documents.length === 0 ? null : pick(documents));
    const ops: ChaosOp[] = [
      {
        name: 'PATCH memory',
        weight: 15,
        send: (apply) => {
          const body = pick<Record<string, unknown>>([
            { content: `Note ${Math.random()}` },
            { valid_to: '2030-01-01T00:00:00Z' },
            { object: pick(employers) },
            { subject: pick(people) },
            { predicate: pick(['works at', 'lives in']) },
          ]);
          return call('PATCH', `/v1/memories/${someMemory()}`, { ...body, apply }, as);
        },
      },
      {
        name: 'DELETE memory',
        weight: 5,
        send: (apply) => call('DELETE', `/v1/memories/${someMemory()}?apply=${apply}`, undefined, as),
      },
      {
        name: 'close memory',
        weight: 5,
        send: (apply) => call('POST', `/v1/memories/${someMemory()}/close`, { apply }, as),
      },
      {
        name: 'supersede memory',
        weight: 5,
        send: (apply) =>
          call('POST', `/v1/memories/${someMemory()}/supersede`, { by: someMemory(), reason: 'newer', apply }, as),
      },
      {
        name: 'review delta',
        weight: 12,
        send: () =>
          deltas.length === 0
            ? null
            : call('POST', `/v1/deltas/${pick(deltas)}/${pick(['apply', 'reject', 'revert'])}`, {}, as),
      },
      {
        name: 'create memory',
        weight: 10,
        send: (apply) =>
          call(
            'POST',
            '/v1/memories',
            { ...fact(pick(people), pick(['works at', 'lives in']), pick(employers)), apply },
            as,
          ),
        adds: memories,
      },
      {
        name: 'PATCH entity',
        weight: 6,
        send: async (apply) =>
          call(
            'PATCH',
            `/v1/entities/${pick(await entityIds(t))}`,
            { properties: { note: `n${Math.random()}` }, apply },
            as,
          ),
      },
      {
        name: 'merge entities',
        weight: 5,
        send: async (apply) => {
          const ids = await entityIds(t);
          return call('POST', '/v1/entities/merge', { into: pick(ids), from: [pick(ids)], apply }, as);
        },
      },
      {
        name: 'DELETE entity',
        weight: 4,
        send: async (apply) =>
          call(
            'DELETE',
            `/v1/entities/${pick(await entityIds(t))}?detach=${Math.random() < 0.5}&apply=${apply}`,
            undefined,
            as,
          ),
      },
      {
        name: 'create document',
        weight: 6,
        send: () => call('POST', '/v1/documents', { title: 'Doc', content: `Doc ${Math.random()}. `.repeat(60) }, as),
        adds: documents,
      },
      {
        name: 're-index document',
        weight: 7,
        send: (apply) => {
          const id = someDocument();
          return id === null
            ? null
            : call('POST', `/v1/documents/${id}/reindex`, { content: `New ${Math.random()}. `.repeat(70), apply }, as);
        },
      },
      {
        name: 'DELETE document',
        weight: 4,
        send: (apply) => {
          const id = someDocument();
          return id === null ? null : call('DELETE', `/v1/documents/${id}?apply=${apply}`, undefined, as);
        },
      },
      { name: 'search', weight: 16, send: () => call('POST', '/v1/memories/search', { query: 'works at Acme' }, as) },
    ];
    const outcome = await runClients(ops, { clients: CLIENTS, seconds: SECONDS, deltas });
    logs.stop();
    report(outcome, logs.lines);
    assert.deepEqual(outcome.serverErrors, []);
    assert.deepEqual(await brokenGraph(t), []);
  });
});
