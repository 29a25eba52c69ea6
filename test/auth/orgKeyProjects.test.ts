// An organization key names its project on each request. Once a read has said which organization a project
// belongs to (it never changes), the request's standing check confirms the project in its first transaction, so
// the hot routes pay no transaction of their own for it; a project gone since, or of another organization, is
// still a 404, and a write refused so leaves nothing.
import assert from 'node:assert/strict';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { timesRun } from '../../src/db/cypher.js';
import { revokeKey, verifyKey } from '../../src/auth/keys.js';

const graph = () => harness().service.deps.graph;
const projectReads = () => timesRun('tenancy/find_project');

async function memoriesOf(t: Tenant): Promise<number> {
  const [row] = await graph().read((tx) =>
    tx.runText('MATCH (m:Memory {project_id: $p}) RETURN count(m) AS n', { p: t.projectId }),
  );
  return Number(row?.n);
}

describe("organization keys: a project's organization is read once", () => {
  it('a known project is confirmed by the standing check: searches and writes read it no more', async () => {
    const t = await newTenant(0);
    const key = await t.keyWith({ organization: true });
    const search = { query: 'lighthouse keepers', project_id: t.projectId };
    assert.equal((await call('POST', '/v1/memories/search', search, { key })).status, 200);
    const before = projectReads();
    const made = await call(
      'POST',
      '/v1/memories',
      { content: 'Lighthouse keepers log the weather.', project_id: t.projectId },
      { key },
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const found = await call('POST', '/v1/memories/search', search, { key });
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.nodes.map((n: { id: string }) => n.id),
      [made.body.memories[0].id],
    );
    const read = await call('GET', `/v1/memories/${made.body.memories[0].id}?project_id=${t.projectId}`, undefined, {
      key,
    });
    assert.equal(read.status, 200);
    assert.equal(projectReads(), before, 'tenancy/find_project ran again for a project already read');
  });

  it("another organization's key asking for a known project is a 404, as for an unknown one", async () => {
    const [mine, theirs] = [await newTenant(0), await newTenant(0)];
    const myKey = await mine.keyWith({ organization: true });
    const theirKey = await theirs.keyWith({ organization: true });
    const search = { query: 'anything', project_id: mine.projectId };
    assert.equal((await call('POST', '/v1/memories/search', search, { key: myKey })).status, 200);
    for (let i = 0; i < 2; i += 1) {
      const foreign = await call('POST', '/v1/memories/search', search, { key: theirKey });
      assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
      assert.equal(foreign.body.error.message, `project ${mine.projectId} was not found`);
      const write = await call(
        'POST',
        '/v1/memories',
        { content: 'Not mine.', project_id: mine.projectId },
        {
          key: theirKey,
        },
      );
      assert.equal(write.status, 404);
    }
    assert.equal(await memoriesOf(mine), 0);
  });

  it('a project deleted after it was read is a 404 to its organization key, and a write to it leaves nothing', async () => {
    const t = await newTenant(0);
    const key = await t.keyWith({ organization: true });
    const body = { content: 'Written before the project went.', project_id: t.projectId };
    assert.equal((await call('POST', '/v1/memories', body, { key })).status, 201);
    assert.equal(await memoriesOf(t), 1);
    // Gone behind the service's back (no route deletes a project): its memories stay, ownerless.
    await graph().write((tx) => tx.runText('MATCH (p:TenantProject {id: $p}) DETACH DELETE p', { p: t.projectId }));
    const deltas = async () =>
      Number(
        (
          await graph().read((tx) =>
            tx.runText('MATCH (d:Delta {project_id: $p}) RETURN count(d) AS n', { p: t.projectId }),
          )
        )[0]?.n,
      );
    const deltasBefore = await deltas();
    const write = await call('POST', '/v1/memories', { ...body, content: 'Written after.' }, { key });
    assert.equal(write.status, 404, JSON.stringify(write.body));
    assert.equal(write.body.error.code, 'not_found');
    assert.equal(await memoriesOf(t), 1);
    assert.equal(await deltas(), deltasBefore);
    const search = await call('POST', '/v1/memories/search', { query: 'written', project_id: t.projectId }, { key });
    assert.equal(search.status, 404);
    assert.equal(search.body.nodes, undefined);
  });

  it('a revoked organization key asking for a known project is refused as revoked, not as a missing project', async () => {
    const t = await newTenant(0);
    const key = await t.keyWith({ organization: true });
    const search = { query: 'anything', project_id: t.projectId };
    assert.equal((await call('POST', '/v1/memories/search', search, { key })).status, 200);
    const check = await verifyKey(graph(), key);
    assert.ok(check.ok);
    assert.ok(await revokeKey(graph(), check.auth.keyId));
    const reply = await call('POST', '/v1/memories/search', search, { key });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.details.reason, 'revoked');
  });
});
