// One webhook delivery (docs/webhooks.md): an attempt now, then one after each wait of the retry
// schedule (durable timers: a restart of the worker or the service loses none), until a 2xx. When
// the last attempt fails the endpoint is disabled (an original delivery; a redelivery only records
// its failure). Thin and deterministic: the attempts and the disabling are activities.
import { proxyActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../src/webhooks/activities.js';

const { attemptWebhookDelivery, exhaustWebhookDelivery } = proxyActivities<WebhookActivities>({
  // An attempt waits at most WEBHOOK_TIMEOUT for the receiver; the graph writes around it are quick.
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export interface WebhookDeliveryInput {
  delivery_id: string;
  /** Waits before each retry (ms), from WEBHOOK_RETRY_SCHEDULE when the delivery was started. */
  schedule_ms: number[];
  /** Disable the endpoint when every attempt failed (false for a redelivery). */
  disable_on_exhaustion: boolean;
}

export interface WebhookDeliveryResult {
  delivery_id: string;
  outcome: 'succeeded' | 'failed' | 'cancelled';
  attempts: number;
}

export async function webhookDelivery(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  for (let attempt = 1; ; attempt += 1) {
    const wait = input.schedule_ms[attempt - 1] ?? null;
    const result = await attemptWebhookDelivery({ delivery_id: input.delivery_id, retry_in_ms: wait });
    if (result.outcome === 'succeeded' || result.outcome === 'cancelled')
      return { delivery_id: input.delivery_id, outcome: result.outcome, attempts: attempt };
    if (wait === null) {
      await exhaustWebhookDelivery({ delivery_id: input.delivery_id, disable: input.disable_on_exhaustion });
      return { delivery_id: input.delivery_id, outcome: 'failed', attempts: attempt };
    }
    await sleep(wait);
  }
}
