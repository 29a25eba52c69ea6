// The dispatcher: hands outbox events (events.ts) to delivery workflows. For each undispatched
// event it creates one delivery per subscribed endpoint (MERGE: created once) and starts workflow
// webhook-<event id>-<endpoint id>; a start Temporal refuses as already started was done before
// (a pass repeated after a crash), so every (event, endpoint) is delivered by exactly one workflow.
// Only then is the event marked dispatched. The outbox lives in the graph: a restart loses nothing.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/config.js';
import type { Graph } from '../db/graph.js';
import { ProjectIdKey } from '../loops/service.js';
import { withTimeout } from '../shared/timeout.js';
import { setEmitListener } from './events.js';

export const DELIVERY_WORKFLOW = 'webhookDelivery';
/** Delivery ids of original deliveries: this prefix, the event id, a dot, the endpoint id. */
export const DELIVERY_PREFIX = 'whd_';

export function deliveryWorkflowId(eventId: string, endpointId: string): string {
  return `webhook-${eventId}-${endpointId}`;
}

export function redeliveryWorkflowId(deliveryId: string): string {
  return `webhook-redeliver-${deliveryId}`;
}

/** Starts a delivery workflow; true when it started now, false when it had been started before. */
export async function startDelivery(
  client: Client,
  config: Config,
  workflowId: string,
  delivery: { id: string; projectId: string; redelivery: boolean },
): Promise<boolean> {
  try {
    await withTimeout(
      client.workflow.start(DELIVERY_WORKFLOW, {
        taskQueue: config.temporal.taskQueue,
        workflowId,
        args: [
          {
            delivery_id: delivery.id,
            schedule_ms: delivery.redelivery ? [] : config.webhooks.retrySchedule,
            disable_on_exhaustion: !delivery.redelivery,
          },
        ],
        typedSearchAttributes: [{ key: ProjectIdKey, value: delivery.projectId }],
        memo: { project_id: delivery.projectId, delivery_id: delivery.id },
        // A workflow id is used once: a second start of the same delivery is refused, even after it ended.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
      5_000,
    );
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

/** Waits of the passes after a nudge (ms): the nudging transaction commits within one of them as a rule. */
const NUDGE_DELAYS_MS = [20, 50, 100, 200, 400];
const DISPATCH_CONCURRENCY = 16;

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private woken = false;
  /** After a nudge, the quick passes still to make before the idle poll resumes (see wake). */
  private followUps = 0;

  constructor(
    private readonly graph: Graph,
    private readonly config: Config,
    private readonly client: () => Promise<Client>,
    private readonly warn: (error: unknown, message: string) => void,
  ) {}

  start(): void {
    this.stopped = false;
    // A committed event is found by the next poll anyway; the nudge only shortens the wait.
    setEmitListener(() => this.wake());
    this.schedule(0);
  }

  /**
   * Called when an event is recorded, which is before its transaction commits: passes follow at
   * short, growing intervals (NUDGE_DELAYS_MS) until one finds it, instead of waiting for the idle poll.
   */
  wake(): void {
    this.woken = true;
    this.followUps = NUDGE_DELAYS_MS.length;
    if (!this.running && !this.stopped) this.schedule(NUDGE_DELAYS_MS[0] ?? 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    setEmitListener(null);
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Dispatches every pending event; resolves how many were dispatched. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      if (this.stopped || !this.graph.health.isUp()) return total;
      const events = await this.graph.read((tx) => tx.run('webhooks/pending_events', { limit: 50 }));
      if (events.length === 0) return total;
      const client = await this.client();
      // Events are independent: up to DISPATCH_CONCURRENCY at a time (each is a few round trips).
      for (let i = 0; i < events.length; i += DISPATCH_CONCURRENCY) {
        if (this.stopped) return total;
        const slice = events.slice(i, i + DISPATCH_CONCURRENCY);
        await Promise.all(slice.map((e) => this.dispatch(client, String(e.id), String(e.project_id))));
        total += slice.length;
      }
    }
  }

  private async dispatch(client: Client, eventId: string, projectId: string): Promise<void> {
    const now = new Date().toISOString();
    const deliveries = await this.graph.write((tx) =>
      tx.run('webhooks/open_deliveries', { event_id: eventId, prefix: DELIVERY_PREFIX, now }),
    );
    for (const d of deliveries) {
      if (d.status !== 'pending') continue; // its workflow has run already
      await startDelivery(client, this.config, deliveryWorkflowId(eventId, String(d.endpoint_id)), {
        id: String(d.id),
        projectId,
        redelivery: false,
      });
    }
    await this.graph.write((tx) => tx.run('webhooks/event_dispatched', { id: eventId, now }));
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.woken = false;
      this.running = this.drain()
        .then(() => undefined)
        .catch((error: unknown) => {
          this.warn(error, 'webhook dispatcher: a pass failed; its events stay pending');
        })
        .finally(() => {
          this.running = undefined;
          if (this.stopped) return;
          if (this.woken) return this.schedule(0);
          const followUp = NUDGE_DELAYS_MS[NUDGE_DELAYS_MS.length - this.followUps];
          if (this.followUps > 0 && followUp !== undefined) {
            this.followUps -= 1;
            return this.schedule(followUp);
          }
          this.schedule(this.config.webhooks.dispatchIdleMs);
        });
    }, ms).unref();
  }
}
