// Helpers of the webhooks tests: an endpoint created through the API, and polling for a state.
import assert from 'node:assert/strict';
import type { Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';

export const ALL_EVENTS = [
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
];

export async function createWebhook(
  t: Tenant,
  url: string,
  events: string[] = ALL_EVENTS,
): Promise<{ id: string; secret: string }> {
  const reply = await t.post('/v1/webhooks', { url, events });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return { id: reply.body.webhook.id, secret: reply.body.secret };
}

export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The retry schedule for one test (config is read when a delivery starts), restored after. */
export async function withSchedule<T>(scheduleMs: number[], run: () => Promise<T>): Promise<T> {
  const webhooks = harness().service.deps.config.webhooks;
  const previous = webhooks.retrySchedule;
  webhooks.retrySchedule = scheduleMs;
  try {
    return await run();
  } finally {
    webhooks.retrySchedule = previous;
  }
}
