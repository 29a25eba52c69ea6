import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { harness } from '../support/harness.js';

describe('local services', () => {
  it('the database is the real Neo4j 5.26 engine', async () => {
    const rows = await harness().service.deps.graph.read((tx) => tx.run('system/components'));
    assert.equal(rows[0]?.name, 'Neo4j Kernel');
    assert.match(String(rows[0]?.version), /^5\.26\./);
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
