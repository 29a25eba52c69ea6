// The local Neo4j never runs without authentication: a web page reaching its Bolt port over
// WebSocket could otherwise write anything (an admin key node). Its password is generated per data
// folder and kept there, readable only by its owner.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import neo4j from 'neo4j-driver';
import { neo4jPasswordFile } from '../../src/runtime/neo4jPassword.js';
import { harness } from '../support/harness.js';

describe('the local Neo4j requires its generated password', function () {
  this.timeout(60_000);

  it('refuses Bolt without credentials or with a wrong password, accepts the generated one, kept mode 600', async function () {
    const { endpoints } = harness();
    if (!endpoints.neo4jAuth) this.skip(); // NEO4J_URI: an external engine with its own login
    const login = endpoints.neo4jAuth!;
    for (const auth of [
      undefined,
      neo4j.auth.basic('neo4j', 'neo4j'),
      neo4j.auth.basic('neo4j', `${login.password}x`),
    ]) {
      const driver = neo4j.driver(endpoints.neo4jUri, auth);
      try {
        await assert.rejects(driver.executeQuery('RETURN 1'), (e: { code?: string }) => {
          assert.match(String(e.code), /Security\.(Unauthorized|AuthenticationRateLimit)/);
          return true;
        });
      } finally {
        await driver.close();
      }
    }
    const driver = neo4j.driver(endpoints.neo4jUri, neo4j.auth.basic(login.user, login.password));
    try {
      assert.equal((await driver.executeQuery('RETURN 1 AS one')).records[0]?.get('one').toNumber(), 1);
    } finally {
      await driver.close();
    }
    const file = neo4jPasswordFile(harness().dataDir);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), login.password);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });
});
