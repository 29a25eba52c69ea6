// The review's own statements, planned before a reviewer needs them. Neo4j plans a statement on its first run and
// keys the plan by its text, its parameters' types and sizes, and whether the transaction has written before it. On
// a freshly started service the first apply planned a dozen statements of its own (lock, promote, mark, the read
// after it): 2.5 s of a 2.8 s apply on a busy 2-core machine (.cache/probe/firstApply.ts). So at start, and when
// Neo4j comes back, the apply and the reject of a delta that does not exist are run with the parameters requests
// give them, in both transaction states a real one meets, and rolled back; the read that answers them is run too.
import type { Graph, Tx } from '../db/graph.js';
import { NO_MATCH_ID } from '../db/warming.js';
import { lockStatement, lockTouchedStatement, promoteSteps, rejectSteps, runSteps, type WriteStep } from './service.js';
import { deltaChanges, deltaRecord } from './store.js';

/** A reviewer's reason as requests give one (its length class: 11 to 100 characters). */
const A_REASON = 'a reviewer read the delta and its preflight verdict';

/** The apply and reject steps with and without a reason: a null and a string are planned apart. */
function reviewSteps(now: string): WriteStep[] {
  const actor = { projectId: NO_MATCH_ID, keyId: NO_MATCH_ID };
  return [
    ...promoteSteps(NO_MATCH_ID, actor, now, null, []),
    ...promoteSteps(NO_MATCH_ID, actor, now, A_REASON, []),
    ...rejectSteps(NO_MATCH_ID, actor, now, null),
    ...rejectSteps(NO_MATCH_ID, actor, now, A_REASON),
  ];
}

/**
 * The Deltas area's statements of a review: the locks, the apply's and the reject's, and the read that answers
 * them. Each file runs with `CYPHER replan=skip` on a plan that starts from the delta's id (USING INDEX): Neo4j
 * otherwise planned them again inside the first review after a bulk import moved its statistics, 2.4-3.3 s of a
 * 3.3-5.5 s apply on the busy machine (.cache/probe/afterImport.ts), and on a grown graph chose a scan of every
 * TARGET relationship for apply_updates (.cache/probe/reviewPlans.ts).
 */
export function reviewStatements(): string[] {
  const named = [
    lockStatement(NO_MATCH_ID, NO_MATCH_ID)[0],
    lockTouchedStatement(NO_MATCH_ID)[0],
    ...reviewSteps(new Date().toISOString()).map((step) => step.statement[0]),
    'deltas/get',
    'deltas/changes',
  ];
  return [...new Set(named.filter((name) => name.startsWith('deltas/')))];
}

/**
 * Plans the apply's and the reject's statements (locks, promotion, marks, the webhook outbox) and the read of a
 * delta with its changes, with ids that match nothing: nothing is read or written, and both writes are rolled back.
 * The statements after a real review's first change run in a transaction that has written, so they are rehearsed
 * once more after a change of the rehearsal's own (deltas/rehearsal_change).
 */
export async function rehearseReview(graph: Graph): Promise<void> {
  const now = new Date().toISOString(); // the same form as requests' $now
  const meta = { purpose: 'review:rehearse' };
  await graph.rehearse(async (tx: Tx) => {
    await tx.run(...lockStatement(NO_MATCH_ID, NO_MATCH_ID));
    await tx.run(...lockTouchedStatement(NO_MATCH_ID));
    await runSteps(tx, reviewSteps(now));
  }, meta);
  await graph.rehearse(async (tx: Tx) => {
    await tx.run('deltas/rehearsal_change');
    await runSteps(tx, reviewSteps(now));
  }, meta);
  await graph.read(async (tx) => {
    await deltaRecord(tx, NO_MATCH_ID, NO_MATCH_ID);
    await deltaChanges(tx, NO_MATCH_ID, NO_MATCH_ID, 1000);
  }, meta);
}
