import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { call, closeClients, httpClient, ok, text } from './support.js';

interface Write {
  id: string;
  delta_id: string;
  status: string;
}
interface DeltaRead {
  delta: { origin: string; created_by: string; status: string };
}

describe('MCP writes: origin mcp and keys whose writes stage', function () {
  this.timeout(240_000); // the shared 2-core machine runs many engines at once
  afterEach(closeClients);
  it('a write through MCP records origin mcp and the key as actor; the same write over /v1 records memory', async () => {
    const t = await newTenant(0);
    const client = await httpClient(t.key);
    const viaMcp = await ok<Write>(client, 'remember', { content: 'Agents write through MCP.' });
    const delta = await ok<DeltaRead>(client, 'get_delta', { id: viaMcp.delta_id });
    assert.equal(delta.delta.origin, 'mcp');
    assert.equal(delta.delta.created_by, t.keyId);
    const viaApi = await t.post('/v1/memories', { content: 'People write through the API.' });
    assert.equal(viaApi.status, 201);
    const apiDelta = await t.get(`/v1/deltas/${viaApi.body.delta_id}`);
    assert.equal(apiDelta.body.delta.origin, 'memory');
    // A forged header cannot claim the MCP door over plain HTTP.
    const forged = await t.post('/v1/memories', { content: 'Forged origin.' }, { headers: { 'X-Gks-Origin': 'mcp' } });
    assert.equal((await t.get(`/v1/deltas/${forged.body.delta_id}`)).body.delta.origin, 'memory');
    // Corrections through MCP are mcp too, and the queue filters on it.
    const corrected = await ok<Write>(client, 'correct_memory', { id: viaMcp.id, content: 'Agents write via MCP.' });
    assert.equal((await ok<DeltaRead>(client, 'get_delta', { id: corrected.delta_id })).delta.origin, 'mcp');
    const listed = await t.get('/v1/deltas?origin=mcp');
    assert.deepEqual(
      (listed.body.deltas as { id: string }[]).map((d) => d.id).sort(),
      [viaMcp.delta_id, corrected.delta_id].sort(),
    );
    await client.close();
  });

  it('a key created with writes stage has every write staged, shows it on GET /v1/project, and may not apply', async () => {
    const t = await newTenant(0);
    const agentKey = await t.keyWith({ writes: 'stage' });
    const project = await fetch(new URL('/v1/project', harness().url), {
      headers: { Authorization: `Bearer ${agentKey}` },
    });
    assert.equal(((await project.json()) as { key: { writes: string } }).key.writes, 'stage');
    assert.equal((await t.get('/v1/project')).body.key.writes, 'apply');

    const agent = await httpClient(agentKey);
    const wrote = await call(agent, 'remember', { content: 'The agent thinks the build is green.', apply: true });
    const sc = wrote.structuredContent as unknown as Write;
    assert.equal(sc.status, 'staged');
    assert.equal(text(wrote), `Staged for review as delta ${sc.delta_id}; not visible to recall until applied.`);
    assert.equal((await ok<{ count: number }>(agent, 'recall', { query: 'build green' })).count, 0);
    // Applying its own write is a reviewer's act: a tool error naming the key option, the session survives.
    const refused = await call(agent, 'apply_delta', { id: sc.delta_id });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^forbidden: .*stage/);
    assert.equal(
      (refused.structuredContent as { error: { details: { key_writes: string } } }).error.details.key_writes,
      'stage',
    );
    // The same key over plain HTTP stages too (the option is the key's, not the door's).
    const plain = await fetch(new URL('/v1/memories', harness().url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Plain HTTP from the agent key.' }),
    });
    assert.equal(((await plain.json()) as Write).status, 'staged');
    // A person's key applies it; then recall finds it.
    const applied = await t.post(`/v1/deltas/${sc.delta_id}/apply`, {});
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    assert.equal((await ok<{ count: number }>(agent, 'recall', { query: 'build green' })).count, 1);
    // Reject stays allowed: discarding its own staged work applies nothing.
    const again = await ok<Write>(agent, 'remember', { content: 'A second agent guess.' });
    assert.equal((await ok<DeltaRead>(agent, 'reject_delta', { id: again.delta_id })).delta.status, 'rejected');
    await agent.close();
  });
});
