// A check row built while a concurrent write deleted one of its nodes: Neo4j reads committed data without locks,
// and a property of a node deleted after the statement matched it reads as null, so a message built from it is
// null too. The apply guard answered 500 for that ("duplicates.cypher returned a row without a message", found
// by a chaos run of entity merges and deletes beside applies). Now such a row makes the audit run again on what is
// committed; a row without a message whose nodes all exist is still a bug of its check file.
import assert from 'node:assert/strict';
import { runChecks, type Check } from '../../src/preflight/checks.js';
import { ApiError } from '../../src/errors/catalogue.js';
import { newTenant } from '../support/api.js';
import { graph } from './support.js';

const GONE = '00000000-0000-4000-8000-0000000000ff';

/** A check whose one row names `nodeIds` and has no message when `message` is null. */
const probe = (nodeIds: string[], message: string | null): Check => ({
  name: 'probe',
  // JSON's strings, lists and null are Cypher literals too.
  text:
    `RETURN 'probe' AS check, 'warning' AS severity, ${JSON.stringify(message)} AS message, ` +
    `${JSON.stringify(nodeIds)} AS node_ids, {rule: 'probe_rule'} AS evidence`,
});

describe('a check row naming a node deleted while the check read it', function () {
  this.timeout(60_000);

  it('runs the audit again, which then reads what is committed', async () => {
    const t = await newTenant(0);
    const memory = await t.post('/v1/memories', { content: 'Still here.', kind: 'observation' });
    let attempts = 0;
    const findings = await graph().read((tx) => {
      attempts += 1;
      const check = attempts === 1 ? probe([memory.body.id, GONE], null) : probe([memory.body.id], 'found');
      return runChecks(tx, 'none', t.projectId, new Date().toISOString(), [check]);
    });
    assert.equal(attempts, 2);
    assert.deepEqual(
      findings.map((f) => f.message),
      ['found'],
    );
  });

  it('past the attempts it is a 409 conflict, never a 500', async () => {
    const t = await newTenant(0);
    await assert.rejects(
      graph().read((tx) => runChecks(tx, 'none', t.projectId, new Date().toISOString(), [probe([GONE], null)])),
      (error: unknown) => error instanceof ApiError && error.status === 409 && error.code === 'conflict',
    );
  });

  it('a row without a message whose nodes all exist is a bug of its check file', async () => {
    const t = await newTenant(0);
    const memory = await t.post('/v1/memories', { content: 'Named by a broken check.', kind: 'observation' });
    await assert.rejects(
      graph().read((tx) =>
        runChecks(tx, 'none', t.projectId, new Date().toISOString(), [probe([memory.body.id], null)]),
      ),
      /cypher\/preflight\/probe\.cypher returned a row without a message/,
    );
  });
});
