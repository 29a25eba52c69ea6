// Webhook endpoints of a project: create (the signing secret answered once), edit, delete, rotate
// the secret (old and new both sign for WEBHOOK_SECRET_OVERLAP), send a ping, redeliver. Endpoints
// are configuration of the project, like its API keys, not knowledge: they are written directly,
// not through a delta. Every URL passes the URL-indexing SSRF guard here and again at each attempt.
import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Actor } from '../auth/actor.js';
import type { Config } from '../config/config.js';
import type { Graph, Tx } from '../db/graph.js';
import { URL_FIELD, parseTarget, systemResolver, vetTarget } from '../documents/ingest/target.js';
import { ApiError, conflict, invalid, notFound } from '../errors/catalogue.js';
import { emitWebhookEvent, noteOutbox, type EventType } from './events.js';
import { DELIVERY_PREFIX, redeliveryWorkflowId, startDelivery } from './dispatch.js';
import { newSecret, sealSecret } from './signing.js';
import {
  readDelivery,
  readEndpoint,
  type DeliveryProps,
  type DeliveryRow,
  type EndpointProps,
  type Fields,
} from './store.js';

export interface CreateInput {
  url: string;
  events: EventType[];
  description?: string;
  enabled?: boolean;
}

export type PatchInput = Partial<CreateInput>;

/** The SSRF guard of URL indexing; a host that does not resolve now is refused too (400, naming the field). */
async function checkUrl(config: Config, url: string): Promise<void> {
  try {
    await vetTarget(parseTarget(url), config.fetch.allowPrivate, systemResolver);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'upstream_error')
      throw invalid(URL_FIELD, 'the host could not be resolved', `url refused: ${error.message}`);
    throw error;
  }
}

function newSealedSecret(config: Config, actor: Actor, now: string) {
  const secret = newSecret();
  const secretId = crypto.randomUUID();
  const sealed = sealSecret(config.secrets, actor.projectId, secretId, secret);
  const previousExpiresAt = new Date(Date.parse(now) + config.webhooks.secretOverlapMs).toISOString();
  return { secret, secretId, sealed, previousExpiresAt };
}

/** Stores the endpoint's new sealed secret (the previous one stays valid until previous_expires_at). */
function putSecret(tx: Tx, actor: Actor, id: string, s: ReturnType<typeof newSealedSecret>, now: string) {
  return tx.one('webhooks/put_secret', {
    endpoint_id: id,
    project_id: actor.projectId,
    secret_id: s.secretId,
    ...s.sealed,
    now,
    previous_expires_at: s.previousExpiresAt,
  });
}

export async function createEndpoint(
  graph: Graph,
  config: Config,
  actor: Actor,
  input: CreateInput,
): Promise<{ id: string; secret: string }> {
  await checkUrl(config, input.url);
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const s = newSealedSecret(config, actor, now);
  await graph.write(
    async (tx) => {
      await tx.run('webhooks/create', {
        id,
        project_id: actor.projectId,
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        enabled: input.enabled ?? true,
        key_id: actor.keyId,
        now,
      });
      await putSecret(tx, actor, id, s, now);
      await countEndpoints(tx, actor.projectId);
    },
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'webhook:create' },
  );
  noteOutbox(actor.projectId, true);
  return { id, secret: s.secret };
}

export async function patchEndpoint(
  graph: Graph,
  config: Config,
  actor: Actor,
  id: string,
  input: PatchInput,
): Promise<void> {
  await readEndpoint(graph, actor.projectId, id);
  if (input.url !== undefined) await checkUrl(config, input.url);
  const set: Fields = {};
  if (input.url !== undefined) set.url = input.url;
  if (input.events !== undefined) set.events = [...new Set(input.events)];
  if (input.description !== undefined) set.description = input.description;
  if (input.enabled !== undefined) set.enabled = input.enabled;
  const row = await graph.write(
    (tx) =>
      tx.one('webhooks/update', {
        id,
        project_id: actor.projectId,
        set,
        now: new Date().toISOString(),
        disabled_reason: input.enabled === false ? 'disabled through the API' : null,
      }),
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'webhook:update' },
  );
  if (!row) throw notFound('webhook', id);
}

export async function deleteEndpoint(graph: Graph, actor: Actor, id: string): Promise<void> {
  const row = await graph.write(
    async (tx) => {
      const deleted = await tx.one('webhooks/delete', { id, project_id: actor.projectId });
      if (deleted) await countEndpoints(tx, actor.projectId);
      return deleted;
    },
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'webhook:delete' },
  );
  if (!row) throw notFound('webhook', id);
}

/**
 * Counts the project's endpoints again on its node, in the transaction that created or deleted one
 * (webhooks/count_endpoints): governed writes send the outbox statement only while the count is not 0. No row: the
 * project was deleted since the request was authenticated, and the endpoint write rolls back.
 */
async function countEndpoints(tx: Tx, projectId: string): Promise<void> {
  if (!(await tx.one('webhooks/count_endpoints', { project_id: projectId }))) throw notFound('project', projectId);
}

export async function rotateSecret(graph: Graph, config: Config, actor: Actor, id: string): Promise<string> {
  await readEndpoint(graph, actor.projectId, id);
  const now = new Date().toISOString();
  const s = newSealedSecret(config, actor, now);
  const row = await graph.write((tx) => putSecret(tx, actor, id, s, now), {
    request_id: actor.requestId,
    key_id: actor.keyId,
    purpose: 'webhook:rotate-secret',
  });
  if (!row) throw notFound('webhook', id);
  return s.secret;
}

function requireEnabled(endpoint: Pick<EndpointProps, 'enabled'>, id: string): void {
  if (endpoint.enabled !== true)
    throw conflict(`Webhook ${id} is disabled; enable it (PATCH enabled: true) before sending to it.`, {
      webhook_id: id,
      enabled: false,
    });
}

/** Records a ping for this endpoint alone; the dispatcher delivers it like any event. */
export async function sendPing(
  graph: Graph,
  actor: Actor,
  id: string,
): Promise<{ eventId: string; deliveryId: string }> {
  requireEnabled((await readEndpoint(graph, actor.projectId, id)).webhook, id);
  const eventId = await graph.write(
    (tx) =>
      emitWebhookEvent(
        tx,
        actor.projectId,
        'ping',
        { webhook_id: id, status: 'ping', links: { webhook: `/v1/webhooks/${id}` } },
        id,
      ),
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'webhook:ping' },
  );
  // Disabled between the read and the write: nothing was recorded.
  if (eventId === null) requireEnabled({ enabled: false }, id);
  return { eventId: String(eventId), deliveryId: `${DELIVERY_PREFIX}${String(eventId)}.${id}` };
}

/** A new delivery of an earlier delivery's event, one attempt, started now. */
export async function redeliver(
  graph: Graph,
  config: Config,
  client: Client,
  actor: Actor,
  id: string,
  deliveryId: string,
): Promise<DeliveryProps> {
  requireEnabled((await readEndpoint(graph, actor.projectId, id)).webhook, id);
  await readDelivery(graph, actor.projectId, id, deliveryId);
  const newId = `${DELIVERY_PREFIX}${crypto.randomUUID()}`;
  const row = await graph.write(
    (tx) =>
      tx.one<DeliveryRow>('webhooks/redelivery', {
        delivery_id: deliveryId,
        endpoint_id: id,
        project_id: actor.projectId,
        id: newId,
        now: new Date().toISOString(),
      }),
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'webhook:redeliver' },
  );
  if (!row) throw notFound('delivery', deliveryId);
  try {
    await startDelivery(client, config, redeliveryWorkflowId(newId), {
      id: newId,
      projectId: actor.projectId,
      redelivery: true,
    });
  } catch (error) {
    await graph.write((tx) =>
      tx.run('webhooks/set_delivery_status', {
        delivery_id: newId,
        status: 'failed',
        error: 'the delivery could not be started (Temporal unreachable); nothing was sent',
      }),
    );
    throw new ApiError(
      'loop_dispatch_unavailable',
      'Delivery (Temporal) is temporarily unreachable; nothing was sent.',
      {
        cause: error instanceof Error ? error.name : 'unknown',
      },
    );
  }
  return { ...row.delivery };
}
