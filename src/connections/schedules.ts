// Periodic syncs as Temporal Schedules: one schedule per connection (sync-schedule-<id>) starting
// connectionSync every schedule.every, never overlapping; paused with the connection, deleted with it.
import { ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Config } from '../config/config.js';
import { SYNC_WORKFLOW, searchAttributes, syncWorkflowId } from './dispatch.js';
import { durationMs } from './service.js';
import type { ConnectionRecord } from './store.js';

export function scheduleId(connectionId: string): string {
  return `sync-schedule-${connectionId}`;
}

function action(config: Config, connection: ConnectionRecord) {
  return {
    type: 'startWorkflow' as const,
    workflowType: SYNC_WORKFLOW,
    workflowId: syncWorkflowId(connection.id),
    taskQueue: config.temporal.taskQueue,
    args: [{ connection_id: connection.id, pages_per_run: config.syncPagesPerRun }],
    typedSearchAttributes: searchAttributes(connection),
    workflowExecutionTimeout: '24 hours',
  };
}

/** Creates, updates or deletes the connection's schedule to match schedule_every and its pause state. */
export async function syncSchedule(client: Client, config: Config, connection: ConnectionRecord): Promise<void> {
  const handle = client.schedule.getHandle(scheduleId(connection.id));
  const paused = connection.status === 'paused';
  if (!connection.scheduleEvery || connection.status === 'revoked') {
    await handle.delete().catch((error: unknown) => {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    });
    return;
  }
  const every = durationMs(connection.scheduleEvery);
  try {
    await handle.update((previous) => ({
      ...previous,
      spec: { intervals: [{ every }] },
      action: action(config, connection),
      state: { ...previous.state, paused },
    }));
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
    await client.schedule.create({
      scheduleId: scheduleId(connection.id),
      spec: { intervals: [{ every }] },
      action: action(config, connection),
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      state: { paused, note: `connection ${connection.name}` },
    });
  }
}
