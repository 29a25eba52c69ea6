// Edits of one connection that overlap: each decides from the connection as it is under its lock, not as it was
// when the request began. A raw transaction stands in for the other edit: it has taken the connection's lock and
// changed it, and commits while the request waits. Before, a host check passed against the old host let an
// edit move a connection back to it after a rebind had given it a new secret (the new secret then went to the
// old host), and a test that ran while the connection was paused set it active again.
import assert from 'node:assert/strict';
import type { Driver } from 'neo4j-driver';
import { call, type Reply } from '../support/api.js';
import { useRawDriver } from '../support/harness.js';
import { github, startStandIn, type StandIn } from './standins.js';
import { createConnection, get, githubConnection, jsonConnection, useGithubStandIn } from './support.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `cypher` on the connection in a raw transaction, sends `request` while it holds the lock, then commits. */
async function duringEdit(
  driver: Driver,
  id: string,
  edit: { cypher: string; params?: Record<string, unknown> },
  request: () => Promise<Reply>,
): Promise<Reply> {
  const session = driver.session();
  const tx = session.beginTransaction();
  try {
    const edited = await tx.run(`MATCH (c:Connection {id: $id}) ${edit.cypher} RETURN c.id AS id`, {
      ...edit.params,
      id,
    });
    assert.equal(edited.records.length, 1);
    const reply = request();
    // The request reads the committed connection and reaches the lock this transaction holds.
    await pause(1_000);
    await tx.commit();
    return await reply;
  } finally {
    await session.close();
  }
}

/** Tokens a stand-in received that are not its own. */
const foreignTokens = (s: StandIn): string[] =>
  [...new Set(s.requests.map((r) => r.authorization ?? ''))].filter((a) => a !== `Bearer ${s.token}`);

describe('concurrent edits of one connection', function () {
  this.timeout(120_000);
  const driver = useRawDriver();
  const fixture = useGithubStandIn();

  it('an edit checked against the old host while a rebind moved the connection is refused (409 secret_rebind_required)', async () => {
    const { gh, t } = fixture;
    const id = await createConnection(t, githubConnection(gh, { name: 'rebind race' }));
    const moved = JSON.stringify({ repo: 'acme/widgets', base_url: 'https://ghe.example' });
    const back = await duringEdit(driver(), id, { cypher: 'SET c.config_json = $moved', params: { moved } }, () =>
      call('PATCH', `/v1/connections/${id}`, { config: { repo: 'acme/gadgets', base_url: gh.url } }, { key: t.key }),
    );
    assert.equal(back.status, 409, JSON.stringify(back.body));
    assert.equal(back.body.error.code, 'secret_rebind_required');
    const now = await get(t, `/v1/connections/${id}`);
    assert.deepEqual(now.body.connection.config, { repo: 'acme/widgets', base_url: 'https://ghe.example' });
  });

  it('a test that ran while the connection was paused records its outcome and leaves it paused', async () => {
    const { gh, t } = fixture;
    const id = await createConnection(t, githubConnection(gh, { name: 'pause race' }));
    const tested = await duringEdit(
      driver(),
      id,
      { cypher: "SET c.prior_status = c.status, c.status = 'paused'" },
      () => call('POST', `/v1/connections/${id}/test`, {}, { key: t.key }),
    );
    assert.equal(tested.status, 200, JSON.stringify(tested.body));
    assert.equal(tested.body.ok, true);
    assert.equal(tested.body.status, 'paused');
    assert.equal((await get(t, `/v1/connections/${id}`)).body.connection.status, 'paused');
  });

  it('tests of a connection while it is moved between two hosts send each host only the token given for it', async () => {
    const { gh, t } = fixture;
    const other = await startStandIn(github);
    try {
      const id = await createConnection(t, githubConnection(gh, { name: 'moving' }));
      const deadline = Date.now() + 15_000;
      let moves = 0;
      const mover = async () => {
        while (Date.now() < deadline) {
          const to = moves % 2 === 0 ? other : gh;
          const moved = await call(
            'PATCH',
            `/v1/connections/${id}`,
            { config: { repo: 'acme/widgets', base_url: to.url }, secret: { token: to.token } },
            { key: t.key },
          );
          assert.equal(moved.status, 200, JSON.stringify(moved.body));
          moves += 1;
        }
      };
      const tester = async () => {
        while (Date.now() < deadline) {
          const tested = await call('POST', `/v1/connections/${id}/test`, {}, { key: t.key });
          assert.equal(tested.status, 200, JSON.stringify(tested.body));
        }
      };
      await Promise.all([mover(), tester(), tester(), tester()]);
      assert.ok(moves > 20, `only ${moves} moves`);
      assert.ok(
        gh.requests.length > 20 && other.requests.length > 20,
        `${gh.requests.length} / ${other.requests.length}`,
      );
      assert.deepEqual(foreignTokens(gh), []);
      assert.deepEqual(foreignTokens(other), []);
    } finally {
      await other.close();
    }
  });

  it('a revoke that overlaps an edit giving a new secret leaves no secret: the revoke reads it under the lock', async () => {
    const { gh, t } = fixture;
    const id = await createConnection(t, jsonConnection(gh, { name: 'revoke race' }));
    const session = driver().session();
    const tx = session.beginTransaction();
    let replies: Promise<Reply[]> | undefined;
    try {
      await tx.run('MATCH (c:Connection {id: $id}) SET c.probe_lock = true REMOVE c.probe_lock', { id });
      const given = call('PATCH', `/v1/connections/${id}`, { secret: { token: gh.token } }, { key: t.key });
      const revoked = pause(300).then(() => call('DELETE', `/v1/connections/${id}`, undefined, { key: t.key }));
      replies = Promise.all([given, revoked]);
      await pause(1_000);
      await tx.commit();
    } finally {
      await session.close();
    }
    const [patched, deleted] = await replies;
    assert.equal(deleted!.status, 200, JSON.stringify(deleted!.body));
    assert.ok([200, 409].includes(patched!.status), JSON.stringify(patched!.body));
    const left = await driver().executeQuery('MATCH (s:ConnectionSecret {connection_id: $id}) RETURN count(s) AS n', {
      id,
    });
    assert.equal(Number(left.records[0]!.get('n')), 0);
    assert.equal((await get(t, `/v1/connections/${id}`)).body.connection.status, 'revoked');
  });
});
