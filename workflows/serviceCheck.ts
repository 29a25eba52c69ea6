// A diagnostic workflow: proves a worker is polling and can reach Neo4j. Deterministic; all I/O
// is in the activity.
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../src/temporal/activities/index.js';

const { checkGraph } = proxyActivities<Pick<Activities, 'checkGraph'>>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 3 },
});

export interface ServiceCheckResult {
  neo4j: { name: string; version: string; edition: string };
  checked_by: string;
}

export async function serviceCheck(requestedBy: string): Promise<ServiceCheckResult> {
  const neo4j = await checkGraph();
  return { neo4j, checked_by: requestedBy };
}
