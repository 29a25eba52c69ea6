// What the API shows of endpoints and deliveries (never a secret: only its fingerprint).
import type { Answer } from '../http/answer.js';
import type { JsonSchema } from '../http/route.js';
import { EVENT_TYPES } from './events.js';
import type { DeliveryProps, EndpointRow } from './store.js';

export function endpointView(row: EndpointRow): Answer<typeof endpointSchema> {
  const w = row.webhook;
  return {
    id: w.id,
    project_id: w.project_id,
    url: w.url,
    events: w.events ?? [],
    description: w.description ?? null,
    enabled: w.enabled === true,
    disabled_reason: w.disabled_reason ?? null,
    disabled_at: w.disabled_at ?? null,
    secret: {
      fingerprint: row.secret?.fingerprint ?? '',
      set_at: row.secret?.set_at ?? w.created_at,
      previous_expires_at: row.previous_expires_at ?? null,
    },
    created_at: w.created_at,
    updated_at: w.updated_at,
    links: { deliveries: `/v1/webhooks/${w.id}/deliveries` },
  };
}

export function deliveryView(d: DeliveryProps): Answer<typeof deliverySchema> {
  return {
    id: d.id,
    webhook_id: d.endpoint_id,
    event_id: d.event_id,
    event_type: d.event_type,
    status: d.status,
    attempt_count: d.attempt_count ?? 0,
    last_status_code: d.last_status_code ?? null,
    last_latency_ms: d.last_latency_ms ?? null,
    last_error: d.last_error ?? null,
    last_attempt_at: d.last_attempt_at ?? null,
    next_retry_at: d.next_retry_at ?? null,
    redelivery_of: d.redelivery_of ?? null,
    created_at: d.created_at,
  };
}

const dateTime = { type: 'string', format: 'date-time' } as const satisfies JsonSchema;
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const satisfies JsonSchema;

export const eventTypeSchema = { enum: [...EVENT_TYPES] } as const satisfies JsonSchema;

export const endpointSchema = {
  type: 'object',
  required: [
    'id',
    'project_id',
    'url',
    'events',
    'description',
    'enabled',
    'disabled_reason',
    'disabled_at',
    'secret',
    'created_at',
    'updated_at',
    'links',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    project_id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: eventTypeSchema },
    description: { type: ['string', 'null'] },
    enabled: { type: 'boolean' },
    disabled_reason: {
      type: ['string', 'null'],
      description: 'Why it was disabled: every attempt of a delivery failed for the retry window, or the API.',
    },
    disabled_at: nullableDateTime,
    secret: {
      type: 'object',
      required: ['fingerprint', 'set_at', 'previous_expires_at'],
      additionalProperties: false,
      description: 'The signing secret is shown once (create, rotate-secret); afterwards only this.',
      properties: {
        fingerprint: { type: 'string' },
        set_at: dateTime,
        previous_expires_at: {
          ...nullableDateTime,
          description: 'Until then the secret replaced by the last rotation still signs too.',
        },
      },
    },
    created_at: dateTime,
    updated_at: dateTime,
    links: {
      type: 'object',
      required: ['deliveries'],
      additionalProperties: false,
      properties: { deliveries: { type: 'string' } },
    },
  },
} as const satisfies JsonSchema;

export const deliverySchema = {
  type: 'object',
  required: [
    'id',
    'webhook_id',
    'event_id',
    'event_type',
    'status',
    'attempt_count',
    'last_status_code',
    'last_latency_ms',
    'last_error',
    'last_attempt_at',
    'next_retry_at',
    'redelivery_of',
    'created_at',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    webhook_id: { type: 'string' },
    event_id: { type: 'string' },
    event_type: eventTypeSchema,
    status: {
      enum: ['pending', 'retrying', 'succeeded', 'failed', 'cancelled'],
      description:
        'pending: no attempt yet; retrying: failed, next_retry_at says when again; cancelled: the endpoint was ' +
        'disabled first.',
    },
    attempt_count: { type: 'integer', minimum: 0 },
    last_status_code: { type: ['integer', 'null'], description: 'null when nothing answered (timeout, refused).' },
    last_latency_ms: { type: ['integer', 'null'], minimum: 0 },
    last_error: { type: ['string', 'null'] },
    last_attempt_at: nullableDateTime,
    next_retry_at: nullableDateTime,
    redelivery_of: { type: ['string', 'null'] },
    created_at: dateTime,
  },
} as const satisfies JsonSchema;
