import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { github, makeIssues, startStandIn } from './standins.js';
import { createConnection, get, githubConnection, post, waitForSync } from './support.js';

describe('periodic syncs on Temporal Schedules', function () {
  this.timeout(180_000);

  it('schedule.every creates a schedule that starts connectionSync (visible by its search attributes); pause, resume and delete follow the connection', async () => {
    const gh = await startStandIn(github);
    gh.issues = makeIssues(2);
    try {
      const t = await newTenant();
      const id = await createConnection(t, githubConnection(gh, { schedule: { every: 'PT1H' } }));
      const client = await harness().service.gateway.getClient();
      const handle = client.schedule.getHandle(`sync-schedule-${id}`);
      const described = await handle.describe();
      assert.equal(described.spec.intervals?.[0]?.every, 3_600_000);
      assert.equal(described.action.type === 'startWorkflow' ? described.action.workflowType : null, 'connectionSync');
      await handle.trigger();
      const deadline = Date.now() + 60_000;
      let syncs: { sync_id: string; trigger: string }[] = [];
      while (syncs.length === 0) {
        if (Date.now() > deadline) throw new Error('the triggered schedule started no sync');
        await new Promise((r) => setTimeout(r, 200));
        syncs = (await get(t, `/v1/connections/${id}/syncs`)).body.syncs;
      }
      assert.equal(syncs[0]!.trigger, 'schedule');
      const done = await waitForSync(t, id, syncs[0]!.sync_id);
      assert.equal(done.records.created, 2);
      const listed = [];
      for await (const w of client.workflow.list({
        query: `ConnectionId = "${id}" AND ConnectionKind = "github_issues" AND ProjectId = "${t.projectId}"`,
      }))
        listed.push(w);
      assert.ok(listed.length >= 1, 'the sync workflow carries its search attributes');
      assert.equal((await post(t, `/v1/connections/${id}/pause`, {})).status, 200);
      assert.equal((await handle.describe()).state.paused, true);
      assert.equal((await post(t, `/v1/connections/${id}/resume`, {})).status, 200);
      assert.equal((await handle.describe()).state.paused, false);
      const deleted = await fetch(`${harness().url}/v1/connections/${id}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${t.key}` },
      });
      assert.equal(deleted.status, 200);
      await assert.rejects(handle.describe());
    } finally {
      await gh.close();
    }
  });
});
