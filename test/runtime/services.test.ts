import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { harness } from '../support/harness.js';

describe('local services', () => {
  it('the database is the real Neo4j 5.26 engine', async () => {
    const rows = await harness().service.deps.graph.read((tx) => tx.run('system/components'));
    assert.equal(rows[0]?.name, 'Neo4j Kernel');
    assert.match(String(rows[0]?.version), /^5\.26\./);
  });

  it('the local engine merges a vector index once 4 segments of a size are written, not 50', async function () {
    const { config, dataDir } = harness();
    if (config.neo4j.uri) this.skip(); // a cluster of the user's own keeps its own settings
    assert.equal(config.neo4j.local.vectorMergeFactor, 4);
    // The launcher prints the engine's own reading of the setting at every start (dbms.listConfig hides it).
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'neo4j.log'), 'utf8');
    const read = [...log.matchAll(/internal\.dbms\.index\.vector\.standard_merge_factor=(\d+)/g)].map((m) => m[1]);
    assert.ok(read.length > 0, 'the launcher printed the setting');
    assert.equal(read.at(-1), '4');
  });

  it('a workflow runs on the Temporal dev server and its history is read back', async () => {
    const { endpoints, config } = harness();
    const connection = await Connection.connect({ address: endpoints.temporalAddress });
    try {
      const client = new Client({ connection, namespace: config.temporal.namespace });
      const handle = await client.workflow.start('serviceCheck', {
        taskQueue: config.temporal.taskQueue,
        workflowId: `service-check-test-${Date.now()}`,
        args: ['mocha'],
      });
      const result = (await handle.result()) as { neo4j: { version: string }; checked_by: string };
      assert.match(result.neo4j.version, /^5\.26\./);
      assert.equal(result.checked_by, 'mocha');
      const history = await handle.fetchHistory();
      const scheduled = (history.events ?? []).find((e) => e.activityTaskScheduledEventAttributes);
      assert.equal(scheduled?.activityTaskScheduledEventAttributes?.activityType?.name, 'checkGraph');
      assert.ok((history.events ?? []).some((e) => e.workflowExecutionCompletedEventAttributes));
    } finally {
      await connection.close();
    }
  });
});
