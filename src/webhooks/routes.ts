// The Webhooks area: endpoints that receive signed events when deltas, loops and syncs change
// state (docs/webhooks.md). The signing secret is answered once, at create and at rotate-secret.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route, type IdempotentRecord } from '../http/route.js';
import { openAnswerSecret, sealAnswerSecret } from './signing.js';
import { listRoute, recordRoute, requestActor } from '../http/records.js';
import { bodyOf } from '../http/app.js';
import { type Actor } from '../auth/actor.js';
import { cursorPage, cursorQuery, idParams, projectQuery } from '../http/schemas.js';
import { createEndpoint, deleteEndpoint, patchEndpoint, redeliver, rotateSecret, sendPing } from './service.js';
import { listDeliveries, listEndpoints, readEndpoint } from './store.js';
import { deliverySchema, deliveryView, endpointSchema, endpointView } from './views.js';
import * as s from './schemas.js';
import { isPresent } from '../graph/views.js';

const TAG = 'Webhooks';
const webhookReply = {
  type: 'object',
  required: ['webhook'],
  properties: { webhook: endpointSchema },
} as const;
const withSecret = {
  type: 'object',
  required: ['webhook', 'secret'],
  properties: {
    webhook: endpointSchema,
    secret: {
      type: 'string',
      pattern: '^whsec_',
      description: 'The signing secret (Standard Webhooks form). Shown only in this answer; store it now.',
    },
  },
} as const;

/**
 * Create's and rotate-secret's idempotency record: their answer holds the endpoint's secret, kept sealed under the
 * secrets key (as the stored secret is) and opened again for a replay.
 */
function sealedSecretRecord(deps: Deps): IdempotentRecord {
  const endpointOf = (body: Record<string, unknown>) => body.webhook as { id: string; project_id: string };
  return {
    keep: ({ secret, ...rest }) => {
      const w = endpointOf(rest);
      return { ...rest, sealed_secret: sealAnswerSecret(deps.config.secrets, w.project_id, w.id, String(secret)) };
    },
    replay: ({ sealed_secret, ...rest }) => {
      const w = endpointOf(rest);
      const sealed = sealed_secret as Parameters<typeof openAnswerSecret>[3];
      return { ...rest, secret: openAnswerSecret(deps.config.secrets, w.project_id, w.id, sealed) };
    },
  };
}

async function view(deps: Deps, actor: Actor, id: string) {
  return endpointView(await readEndpoint(deps.graph, actor.projectId, id));
}

const pageQuery = cursorQuery();

export function webhookRoutes(deps: Deps) {
  const listWebhooksAnswer = cursorPage('webhooks', endpointSchema);
  const deleteWebhookAnswer = {
    type: 'object',
    required: ['id', 'deleted'],
    properties: { id: { type: 'string' }, deleted: { const: true } },
  } as const;
  const testWebhookAnswer = {
    type: 'object',
    required: ['event_id', 'delivery_id', 'status', 'links'],
    properties: {
      event_id: { type: 'string' },
      delivery_id: { type: 'string' },
      status: { const: 'queued' },
      links: {
        type: 'object',
        required: ['deliveries'],
        additionalProperties: false,
        properties: { deliveries: { type: 'string' } },
      },
    },
  } as const;
  const listWebhookDeliveriesAnswer = cursorPage('deliveries', deliverySchema);
  const redeliverWebhookDeliveryAnswer = {
    type: 'object',
    required: ['delivery'],
    properties: { delivery: deliverySchema },
  } as const;
  return defineRoutes([
    route<typeof withSecret>({
      method: 'post',
      path: '/v1/webhooks',
      operationId: 'createWebhook',
      tag: TAG,
      scope: 'webhooks:write',
      summary: 'Create a webhook endpoint; its signing secret is answered once',
      description:
        'The secret is sealed with the secrets key (GKS_SECRETS_KEY); afterwards only its fingerprint shows. ' +
        'Idempotent by Idempotency-Key: a replay answers the same endpoint and secret (kept sealed for the replay). ' +
        'Without a secrets key: 503 secrets_unavailable. A private-address URL: 400 unless the service allows it.',
      idempotent: true,
      idempotentRecord: sealedSecretRecord(deps),
      body: s.createBody,
      status: 201,
      response: withSecret,
      errors: ['invalid_request', 'secrets_unavailable'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const created = await createEndpoint(deps.graph, deps.config, actor, bodyOf<typeof s.createBody>(ctx));
        return { status: 201, body: { webhook: await view(deps, actor, created.id), secret: created.secret } };
      },
    }),
    listRoute<typeof listWebhooksAnswer, typeof pageQuery, 'webhooks', 'newest'>(
      deps,
      {
        path: '/v1/webhooks',
        operationId: 'listWebhooks',
        tag: TAG,
        scope: 'webhooks:read',
        summary: 'List the webhook endpoints of a project, newest first',
        key: 'webhooks',
        query: pageQuery,
        response: listWebhooksAnswer,
        order: 'newest',
      },
      async (actor, q, after) =>
        (await listEndpoints(deps.graph, actor.projectId, after, q.limit + 1)).map((r) =>
          isPresent(r.webhook) ? endpointView(r) : null,
        ),
      (w) => ({ c: w.created_at, i: w.id }),
    ),
    recordRoute(
      deps,
      {
        path: '/v1/webhooks/:id',
        operationId: 'getWebhook',
        tag: TAG,
        scope: 'webhooks:read',
        summary: 'Read a webhook endpoint (its secret only as a fingerprint)',
        key: 'webhook',
        response: webhookReply,
      },
      (actor, id) => view(deps, actor, id),
    ),
    route<typeof webhookReply>({
      method: 'patch',
      path: '/v1/webhooks/:id',
      operationId: 'updateWebhook',
      tag: TAG,
      scope: 'webhooks:write',
      summary: 'Edit a webhook endpoint: url, events, description, enabled',
      description: 'events replaces the whole list. enabled true clears disabled_reason.',
      params: idParams,
      body: s.patchBody,
      status: 200,
      response: webhookReply,
      errors: ['invalid_request', 'not_found'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        await patchEndpoint(deps.graph, deps.config, actor, ctx.params.id!, bodyOf<typeof s.patchBody>(ctx));
        return { body: { webhook: await view(deps, actor, ctx.params.id!) } };
      },
    }),
    route<typeof deleteWebhookAnswer>({
      method: 'delete',
      path: '/v1/webhooks/:id',
      operationId: 'deleteWebhook',
      tag: TAG,
      scope: 'webhooks:write',
      summary: 'Delete a webhook endpoint with its secrets and delivery records',
      description: 'A delivery still retrying finds the endpoint gone and stops.',
      params: idParams,
      query: projectQuery,
      status: 200,
      response: deleteWebhookAnswer,
      errors: ['not_found'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        await deleteEndpoint(deps.graph, actor, ctx.params.id!);
        return { body: { id: ctx.params.id!, deleted: true } };
      },
    }),
    route<typeof withSecret>({
      method: 'post',
      path: '/v1/webhooks/:id/rotate-secret',
      operationId: 'rotateWebhookSecret',
      tag: TAG,
      scope: 'webhooks:write',
      summary: 'Replace the signing secret; the old one keeps signing beside it for 24 hours',
      description:
        'Answers the new secret once. Until secret.previous_expires_at every delivery carries two signatures ' +
        '(webhook-signature, space-separated), so receivers switch without losing events. Idempotent by ' +
        'Idempotency-Key: a replay answers the same new secret (kept sealed for the replay), it does not rotate again.',
      idempotent: true,
      idempotentRecord: sealedSecretRecord(deps),
      params: idParams,
      body: s.projectOnlyBody,
      status: 200,
      response: withSecret,
      errors: ['not_found', 'secrets_unavailable'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const secret = await rotateSecret(deps.graph, deps.config, actor, ctx.params.id!);
        return { body: { webhook: await view(deps, actor, ctx.params.id!), secret } };
      },
    }),
    route<typeof testWebhookAnswer>({
      method: 'post',
      path: '/v1/webhooks/:id/test',
      operationId: 'testWebhook',
      tag: TAG,
      scope: 'webhooks:write',
      idempotent: true,
      summary: 'Send a ping event to this endpoint',
      description:
        'Queues a ping to this endpoint alone (whatever it subscribes to), delivered and retried like any event; ' +
        'its delivery shows in the deliveries list. 409 when the endpoint is disabled.',
      params: idParams,
      body: s.projectOnlyBody,
      status: 202,
      response: testWebhookAnswer,
      errors: ['not_found', 'conflict'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const ping = await sendPing(deps.graph, actor, ctx.params.id!);
        return {
          status: 202,
          body: {
            event_id: ping.eventId,
            delivery_id: ping.deliveryId,
            status: 'queued',
            links: { deliveries: `/v1/webhooks/${ctx.params.id!}/deliveries` },
          },
        };
      },
    }),
    listRoute<typeof listWebhookDeliveriesAnswer, typeof pageQuery, 'deliveries', 'newest'>(
      deps,
      {
        path: '/v1/webhooks/:id/deliveries',
        operationId: 'listWebhookDeliveries',
        tag: TAG,
        scope: 'webhooks:read',
        summary: "An endpoint's deliveries, newest first: event, attempts, last status code, latency, next retry",
        params: idParams,
        errors: ['not_found'],
        key: 'deliveries',
        query: pageQuery,
        response: listWebhookDeliveriesAnswer,
        order: 'newest',
      },
      async (actor, q, after, ctx) => {
        await readEndpoint(deps.graph, actor.projectId, ctx.params.id!);
        const rows = await listDeliveries(deps.graph, actor.projectId, ctx.params.id!, after, q.limit + 1);
        // A delivery forgotten (or its webhook deleted) while the page was read: null for keysetPage.
        return rows.map((d) => (isPresent(d) ? deliveryView(d) : null));
      },
      (d) => ({ c: d.created_at, i: d.id }),
    ),
    route<typeof redeliverWebhookDeliveryAnswer>({
      method: 'post',
      path: '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
      operationId: 'redeliverWebhookDelivery',
      tag: TAG,
      scope: 'webhooks:write',
      idempotent: true,
      summary: "Send a delivery's event again (a new delivery, one attempt)",
      description:
        'A new delivery (redelivery_of names the old one) of the same event, with the same webhook-id so ' +
        'receivers can deduplicate; one attempt, no retries, and its failure never disables the endpoint. 409 ' +
        'when the endpoint is disabled.',
      params: s.deliveryParams,
      body: s.projectOnlyBody,
      status: 202,
      response: redeliverWebhookDeliveryAnswer,
      errors: ['not_found', 'conflict', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const client = await deps.temporal.clientOrUnavailable(
          'Delivery (Temporal) is temporarily unreachable; nothing was sent.',
        );
        const d = await redeliver(deps.graph, deps.config, client, actor, ctx.params.id!, ctx.params.delivery_id!);
        return { status: 202, body: { delivery: deliveryView(d) } };
      },
    }),
  ]);
}
