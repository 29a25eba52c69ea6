// The delivery activities: one signed POST per attempt through the URL-indexing SSRF guard (checked
// again at every attempt, since DNS may change), no redirect followed, a deadline of WEBHOOK_TIMEOUT,
// and at most WEBHOOK_MAX_RESPONSE_BYTES of the answer read and dropped: only its status and the
// latency are stored. When every attempt failed, the endpoint is disabled and webhook.disabled says so.
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Graph } from '../db/graph.js';
import { requestGuarded } from '../documents/ingest/fetchUrl.js';
import { ApiError } from '../errors/catalogue.js';
import { emitWebhookEvent, payloadOf } from './events.js';
import { openSecret, signatures, type StoredSecret } from './signing.js';
import type { DeliveryProps, EndpointProps } from './store.js';

/**
 * A row of webhooks/attempt_context: the delivery, its event, the endpoint's sending facts (null once deleted)
 * and its unexpired sealed secrets (declared, not checked).
 */
interface AttemptContextRow {
  delivery: DeliveryProps;
  event: { id: string; type: string; created_at: string; project_id: string; data: string };
  endpoint: Pick<EndpointProps, 'id' | 'project_id' | 'url' | 'enabled'> | null;
  secrets: StoredSecret[];
}

export interface AttemptRequest {
  delivery_id: string;
  /** The wait before the next attempt should this one fail; null when it is the last. */
  retry_in_ms: number | null;
}

export interface AttemptResult {
  outcome: 'succeeded' | 'retrying' | 'failed' | 'cancelled';
  status_code: number | null;
}

const USER_AGENT = 'gks-webhooks/1.0';

interface Sent {
  statusCode: number | null;
  error: string | null;
}

async function send(config: Config, url: string, headers: Record<string, string>, body: string): Promise<Sent> {
  try {
    const response = await requestGuarded(
      url,
      { method: 'POST', headers, body },
      {
        allowPrivate: config.fetch.allowPrivate,
        timeoutMs: config.webhooks.timeoutMs,
        maxBytes: config.webhooks.maxResponseBytes,
        maxRedirects: 0,
        truncate: true,
      },
    );
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, error: ok ? null : `the endpoint answered HTTP ${response.status}` };
  } catch (error) {
    const message = error instanceof ApiError ? error.message : 'the request failed';
    return { statusCode: null, error: message.slice(0, 300) };
  }
}

export function createWebhookActivities(deps: { graph: Graph; config: Config; logger?: Logger }) {
  const { graph, config } = deps;
  const end = (deliveryId: string, status: string, error: string | null) =>
    graph.write((tx) => tx.run('webhooks/set_delivery_status', { delivery_id: deliveryId, status, error }));
  return {
    async attemptWebhookDelivery(request: AttemptRequest): Promise<AttemptResult> {
      const now = new Date();
      const row = await graph.read((tx) =>
        tx.one<AttemptContextRow>('webhooks/attempt_context', {
          delivery_id: request.delivery_id,
          now: now.toISOString(),
        }),
      );
      // The endpoint (and with it its deliveries) was deleted: nothing to send.
      if (!row) return { outcome: 'cancelled', status_code: null };
      const endpoint = row.endpoint;
      if (!endpoint) {
        // Recorded by a dispatch that overlapped the endpoint's delete: the record goes the way of the others.
        await graph.write((tx) => tx.run('webhooks/forget_delivery', { delivery_id: request.delivery_id }));
        return { outcome: 'cancelled', status_code: null };
      }
      if (endpoint.enabled !== true) {
        await end(request.delivery_id, 'cancelled', 'the endpoint was disabled before this attempt');
        return { outcome: 'cancelled', status_code: null };
      }
      const event = row.event;
      const projectId = event.project_id;
      const body = JSON.stringify(
        payloadOf({
          id: event.id,
          type: event.type,
          created_at: event.created_at,
          project_id: projectId,
          data: event.data,
        }),
      );
      let sent: Sent;
      const started = performance.now();
      try {
        const secrets = row.secrets.map((s) => openSecret(config.secrets, projectId, s));
        const headers = {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signatures(secrets, event.id, now, body),
        };
        sent = await send(config, endpoint.url, headers, body);
      } catch (error) {
        // A secret that cannot be opened (its key is no longer configured) fails the attempt, named.
        sent = {
          statusCode: null,
          error: error instanceof ApiError ? error.message : 'the secret could not be opened',
        };
      }
      const latency = Math.round(performance.now() - started);
      const succeeded = sent.error === null;
      const outcome = succeeded ? 'succeeded' : request.retry_in_ms === null ? 'failed' : 'retrying';
      await graph.write((tx) =>
        tx.run('webhooks/record_attempt', {
          delivery_id: request.delivery_id,
          status: outcome,
          status_code: sent.statusCode,
          latency_ms: latency,
          error: sent.error,
          now: now.toISOString(),
          next_retry_at:
            outcome === 'retrying' ? new Date(Date.now() + (request.retry_in_ms ?? 0)).toISOString() : null,
        }),
      );
      return { outcome, status_code: sent.statusCode };
    },

    /** The last attempt failed: disable the endpoint (once) and emit webhook.disabled to the project's others. */
    async exhaustWebhookDelivery(request: { delivery_id: string; disable: boolean }): Promise<{ disabled: boolean }> {
      if (!request.disable) return { disabled: false };
      const now = new Date().toISOString();
      return graph.write(async (tx) => {
        const delivery = await tx.one<AttemptContextRow>('webhooks/attempt_context', {
          delivery_id: request.delivery_id,
          now,
        });
        const d = delivery?.delivery;
        if (!d) return { disabled: false };
        const reason =
          `Every attempt to deliver event ${d.event_id} failed within the retry window ` +
          `(last: ${d.last_status_code === null ? String(d.last_error) : `HTTP ${String(d.last_status_code)}`}).`;
        const disabled = await tx.one<{ id: string; project_id: string }>('webhooks/disable', {
          endpoint_id: d.endpoint_id,
          reason,
          now,
        });
        if (!disabled) return { disabled: false };
        await emitWebhookEvent(tx, disabled.project_id, 'webhook.disabled', {
          webhook_id: disabled.id,
          status: 'disabled',
          delivery_id: d.id,
          event_id: d.event_id,
          links: { webhook: `/v1/webhooks/${disabled.id}` },
        });
        return { disabled: true };
      });
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
