// A key known valid is not looked up again before each request: its standing (not revoked, its project not
// gone) is read in the request's own first transaction, which commits only if it holds. These tests make the
// key known with one request, change its standing behind the service's back, and check that the very next
// request is refused as a lookup would refuse it, and that a refused write leaves nothing behind.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { timesRun } from '../../src/db/cypher.js';

const graph = () => harness().service.deps.graph;

async function revoke(key: string): Promise<void> {
  // gks_<lookup>_<secret>: the lookup token is the 12 characters after the prefix.
  await graph().write((tx) =>
    tx.runText('MATCH (k:ApiKey {lookup: $lookup}) SET k.revoked_at = toString(datetime())', {
      lookup: key.slice(4, 16),
    }),
  );
}

/** Committed and staged memories and deltas of the project (whatever a write could have left). */
async function traces(t: Tenant): Promise<{ memories: number; deltas: number; claims: number }> {
  const [row] = await graph().read((tx) =>
    tx.runText(
      `CALL { MATCH (m:Memory {project_id: $p}) RETURN count(m) AS memories }
       CALL { MATCH (d:Delta {project_id: $p}) RETURN count(d) AS deltas }
       CALL { MATCH (i:IdempotencyRecord) WHERE i.key_id = $k RETURN count(i) AS claims }
       RETURN memories, deltas, claims`,
      { p: t.projectId, k: t.keyId },
    ),
  );
  return { memories: Number(row?.memories), deltas: Number(row?.deltas), claims: Number(row?.claims) };
}

/** Makes the tenant's key known to the service: one request on a route that remembers it. */
async function known(t: Tenant, key = t.key): Promise<string> {
  const made = await call('POST', '/v1/memories', { content: 'The known key wrote this.' }, { key });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.equal((await call('GET', `/v1/memories/${made.body.memories[0].id}`, undefined, { key })).status, 200);
  return made.body.memories[0].id as string;
}

describe('known keys: standing read in the request transaction', () => {
  it('a write by a key revoked after it was known is refused and leaves no memory, delta or idempotency claim', async () => {
    const t = await newTenant(0);
    await known(t);
    await revoke(t.key);
    const before = await traces(t);
    const reply = await t.post(
      '/v1/memories',
      { content: 'Written after the key was revoked.' },
      { headers: { 'Idempotency-Key': 'after-revocation-1' } },
    );
    assert.equal(reply.status, 401, JSON.stringify(reply.body));
    assert.equal(reply.body.error.details.reason, 'revoked');
    assert.deepEqual(await traces(t), before);
    // And it stays refused: the next request looks the key up and finds it revoked.
    assert.equal((await t.post('/v1/memories', { content: 'Again.' })).status, 401);
    assert.deepEqual(await traces(t), before);
  });

  it('a batch written by a key revoked after it was known commits none of its items', async () => {
    const t = await newTenant(0);
    await known(t);
    await revoke(t.key);
    const before = await traces(t);
    const memories = Array.from({ length: 20 }, (_, i) => ({ content: `Batch item ${i} after revocation.` }));
    const reply = await t.post('/v1/memories', { memories });
    assert.equal(reply.status, 401);
    assert.deepEqual(await traces(t), before);
  });

  it('reads by a key revoked after it was known answer 401 and no data', async () => {
    const t = await newTenant(0);
    const id = await known(t);
    await revoke(t.key);
    const single = await t.get(`/v1/memories/${id}`);
    assert.equal(single.status, 401);
    assert.equal(single.body.memory, undefined);
    // Each refusal forgets the key, so make it known again through a fresh key for every read route.
    for (const [path, body] of [
      ['/v1/memories/search', { query: 'known key', mode: 'lexical' }],
      ['/v1/search', { query: 'known key', mode: 'lexical' }],
      ['/v1/context/compile', { slice: { query: 'known key' } }],
    ] as const) {
      const key = await t.keyWith({});
      await known(t, key);
      await revoke(key);
      const reply = await call('POST', path, body, { key });
      assert.equal(reply.status, 401, `${path}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.error.details.reason, 'revoked');
      assert.equal(reply.body.nodes, undefined);
    }
  });

  it('a key revoked after it was known is told so, not that its body or scope is wrong', async () => {
    const t = await newTenant(0);
    await known(t);
    await revoke(t.key);
    const invalid = await t.post('/v1/memories', { content: 42 });
    assert.equal(invalid.status, 401);
    assert.equal(invalid.body.error.details.reason, 'revoked');

    const narrow = await t.keyWith({ scopes: ['memories:read'] });
    const id = await known(t, await t.keyWith({}));
    assert.equal((await call('GET', `/v1/memories/${id}`, undefined, { key: narrow })).status, 200);
    await revoke(narrow);
    const unscoped = await call('POST', '/v1/memories', { content: 'Not in scope.' }, { key: narrow });
    assert.equal(unscoped.status, 401, JSON.stringify(unscoped.body));
    assert.equal(unscoped.body.error.details.reason, 'revoked');
  });

  it('a known key whose project is gone is not recognised', async () => {
    const t = await newTenant(0);
    await known(t);
    await graph().write((tx) => tx.runText('MATCH (p:TenantProject {id: $p}) DETACH DELETE p', { p: t.projectId }));
    const reply = await t.post('/v1/memories', { content: 'For a project that is gone.' });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.details.reason, 'unknown');
  });

  it('a known lookup token with another secret is not recognised', async () => {
    const t = await newTenant(0);
    await known(t);
    const forged = t.key.slice(0, 17) + 'x'.repeat(t.key.length - 17);
    const reply = await call('POST', '/v1/memories', { content: 'Forged.' }, { key: forged });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.details.reason, 'unknown');
    // The real key still works.
    assert.equal((await t.post('/v1/memories', { content: 'Real.' })).status, 201);
  });

  it("a known key's write reads its standing in the write's own statement, with no statement of its own", async () => {
    const t = await newTenant(0);
    await known(t);
    const checks = timesRun('auth/key_standing');
    const made = await t.post('/v1/memories', { memories: [{ content: 'One.' }, { content: 'Two.' }] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(timesRun('auth/key_standing'), checks, 'deltas/create carried the check');
    await revoke(t.key);
    const before = await traces(t);
    const refused = await t.post('/v1/memories', { content: 'After the revocation.' });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.details.reason, 'revoked');
    assert.deepEqual(await traces(t), before);
  });

  it("a known key's read by id, search and compile carry its standing in their own statement, with none of its own", async () => {
    const t = await newTenant(0);
    const id = await known(t);
    const checks = timesRun('auth/key_standing');
    assert.equal((await t.get(`/v1/memories/${id}`)).status, 200);
    const found = await t.post('/v1/memories/search', { query: 'known key', mode: 'lexical' });
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.ok(found.body.nodes.some((n: { id: string }) => n.id === id));
    // A memory that is not there: the statement still answers its one row, and the check with it.
    assert.equal((await t.get(`/v1/memories/${crypto.randomUUID()}`)).status, 404);
    // A compile's plane statements go out side by side: the first carries the check, the others wait for it.
    const pack = await t.post('/v1/context/compile', { query: 'known key', slice: { budget: { max_tokens: 500 } } });
    assert.equal(pack.status, 200, JSON.stringify(pack.body));
    assert.equal(timesRun('auth/key_standing'), checks, 'memories/get, memories/search and compiles carried it');
    // Refused through the carried check: revoked, then deleted (each refusal forgets the key).
    await revoke(t.key);
    const missing = await t.get(`/v1/memories/${crypto.randomUUID()}`);
    assert.equal(missing.status, 401, 'a revoked key is told so, not that the memory is missing');
    assert.equal(missing.body.error.details.reason, 'revoked');
    const gone = await newTenant(0);
    const goneId = await known(gone);
    await graph().write((tx) => tx.runText('MATCH (k:ApiKey {id: $id}) DETACH DELETE k', { id: gone.keyId }));
    const deleted = await gone.get(`/v1/memories/${goneId}`);
    assert.equal(deleted.status, 401, JSON.stringify(deleted.body));
    assert.equal(deleted.body.error.details.reason, 'unknown');
    assert.equal(deleted.body.memory, undefined);
  });

  it('a search in a project with nothing indexed (no row to carry the check) still reads and applies it', async () => {
    const t = await newTenant(0);
    // Known through a read (a write would index a memory): a read by id of a memory that is not there.
    assert.equal((await t.get(`/v1/memories/${crypto.randomUUID()}`)).status, 404);
    const checks = timesRun('auth/key_standing');
    const empty = await t.post('/v1/memories/search', { query: 'anything', mode: 'lexical' });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.equal(empty.body.count, 0);
    assert.equal(timesRun('auth/key_standing'), checks + 1, 'no row: the check is read on its own');
    await revoke(t.key);
    const refused = await t.post('/v1/memories/search', { query: 'anything', mode: 'lexical' });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.details.reason, 'revoked');
  });

  it('a write by a key deleted after it was known is refused as unknown and leaves nothing', async () => {
    const t = await newTenant(0);
    await known(t);
    await graph().write((tx) => tx.runText('MATCH (k:ApiKey {id: $id}) DETACH DELETE k', { id: t.keyId }));
    const before = await traces(t);
    const reply = await t.post('/v1/memories', { content: 'By a key that is gone.' });
    assert.equal(reply.status, 401, JSON.stringify(reply.body));
    assert.equal(reply.body.error.details.reason, 'unknown');
    assert.deepEqual(await traces(t), before);
  });

  it('a known key that still stands writes and reads as before', async () => {
    const t = await newTenant(0);
    await known(t);
    const made = await t.post('/v1/memories', { content: 'Ada Lovelace wrote the first program.' });
    assert.equal(made.status, 201);
    const found = await t.post('/v1/memories/search', { query: 'Lovelace program', mode: 'lexical' });
    assert.equal(found.status, 200);
    assert.ok(found.body.nodes.some((n: { id: string }) => n.id === made.body.memories[0].id));
  });
});
