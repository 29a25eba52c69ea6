// Webhook event types and the outbox: an event is written by the transaction that changes the state
// it reports (so it exists exactly when the change committed, once), and only when an enabled
// endpoint of the project subscribes to its type. The dispatcher (dispatch.ts) hands it to delivery
// workflows. Payload data carries ids, status and links only: never memory content or secrets.
import crypto from 'node:crypto';
import type { Row, Tx } from '../db/graph.js';

/** Events an endpoint can subscribe to (ping is sent by POST /v1/webhooks/{id}/test to that endpoint alone). */
export const EVENT_TYPES = [
  'delta.staged',
  'delta.applied',
  'delta.rejected',
  'delta.reverted',
  'loop.completed',
  'loop.failed',
  'sync.completed',
  'sync.failed',
  'credits.low',
  'webhook.disabled',
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The payload's data: flat ids, statuses, numbers and links, never free text a user wrote. */
export type EventData = Record<string, string | number | boolean | null | Record<string, string>>;

export interface EmittedEvent {
  id: string;
  type: EventType;
  projectId: string;
  createdAt: string;
  data: EventData;
}

/**
 * Records the event in the caller's transaction when an enabled endpoint of the project subscribes
 * to it (endpointId: that endpoint only). Resolves the event id, or null when nobody listens.
 */
export async function emitWebhookEvent(
  tx: Tx,
  projectId: string,
  type: EventType,
  data: EventData,
  endpointId: string | null = null,
): Promise<string | null> {
  const step = webhookEventStep(projectId, type, data, endpointId);
  // cypher/webhooks/emit.cypher's row: the event's id, the $id given (declared, not checked).
  const row = await tx.one<{ id: string }>(...step.statement);
  step.check(row ? [row] : []);
  return row ? row.id : null;
}

/**
 * The outbox statement as a step of a pipelined write (deltas/service.ts runSteps): its check wakes
 * the dispatcher when an event was recorded.
 */
export function webhookEventStep(
  projectId: string,
  type: EventType,
  data: EventData,
  endpointId: string | null = null,
): { statement: readonly [string, Record<string, unknown>]; check: (rows: Row[]) => void } {
  return {
    statement: [
      'webhooks/emit',
      {
        id: crypto.randomUUID(),
        type,
        project_id: projectId,
        now: new Date().toISOString(),
        data: JSON.stringify(data),
        endpoint_id: endpointId,
      },
    ],
    // The transaction may not have committed yet: the dispatcher waits a moment, and polls anyway.
    check: (rows) => {
      if (rows.length > 0) emitListener?.();
    },
  };
}

/**
 * Whether a write of the project must send the outbox statement: its node counts its endpoints (webhook_endpoints,
 * counted again by webhooks/count_endpoints under the project's lock, and read by the write's own transaction, so
 * every API process agrees). A project from before that count (null) may have some. An endpoint disabled still
 * counts: webhooks/emit looks at what each one subscribes to.
 */
export function mayHaveSubscribers(webhookEndpoints: unknown): boolean {
  return webhookEndpoints === null || webhookEndpoints === undefined || Number(webhookEndpoints) !== 0;
}

/**
 * Projects this process lately saw with a webhook endpoint (a write's deltas/create answered a count, or an endpoint
 * was created here): their governed writes take a transaction at once, since a write sent alone (deltas/create with
 * $alone) would answer no row for them and be sent again. A hint only: the statement decides, and a project whose
 * endpoints were all deleted elsewhere leaves the hint with its next write's answer.
 */
const outboxProjects = new Set<string>();
const OUTBOX_PROJECTS = 10_000;

/** Notes whether a project may have subscribers (the answer of its last write, or an endpoint created). */
export function noteOutbox(projectId: string, may: boolean): void {
  outboxProjects.delete(projectId);
  if (!may) return;
  outboxProjects.add(projectId);
  if (outboxProjects.size > OUTBOX_PROJECTS) outboxProjects.delete(outboxProjects.values().next().value as string);
}

/** Whether this process lately saw the project with a webhook endpoint (noteOutbox). */
export function outboxExpected(projectId: string): boolean {
  return outboxProjects.has(projectId);
}

/** The data of a delta event. */
export function deltaEventData(deltaId: string, status: string): EventData {
  return { delta_id: deltaId, status, links: { delta: `/v1/deltas/${deltaId}` } };
}

/**
 * credits.low, in the transaction of a reservation that took the organization's balance from at or
 * above its low_balance_threshold to below it (once per crossing; nothing while no threshold is set).
 */
export async function emitCreditsLow(
  tx: Tx,
  actor: { projectId: string; organizationId: string },
  balanceAfter: number,
  reserved: number,
  threshold: unknown,
): Promise<void> {
  if (typeof threshold !== 'number') return;
  if (!(balanceAfter + reserved >= threshold && balanceAfter < threshold)) return;
  await emitWebhookEvent(tx, actor.projectId, 'credits.low', {
    organization_id: actor.organizationId,
    status: 'low',
    balance: balanceAfter,
    threshold,
    links: { credits: '/v1/credits' },
  });
}

/** The body every receiver gets: {id, type, created_at, project_id, data}. */
export function payloadOf(event: { id: string; type: string; created_at: string; project_id: string; data: string }) {
  return {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    project_id: event.project_id,
    data: JSON.parse(event.data) as EventData,
  };
}

let emitListener: (() => void) | null = null;

/** The in-process dispatcher's nudge: called after an event was recorded (it still polls). */
export function setEmitListener(listener: (() => void) | null): void {
  emitListener = listener;
}
