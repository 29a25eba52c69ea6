// What the API shows of endpoints and deliveries (never a secret: only its fingerprint).
import type { JsonSchema } from '../http/route.js';
import { EVENT_TYPES } from './events.js';
import type { EndpointRow, Fields } from './store.js';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

export function endpointView(row: EndpointRow) {
  const w = row.webhook;
  return {
    id: String(w.id),
    project_id: String(w.project_id),
    url: String(w.url),
    events: (w.events as string[] | null) ?? [],
    description: str(w.description),
    enabled: w.enabled === true,
    disabled_reason: str(w.disabled_reason),
    disabled_at: str(w.disabled_at),
    secret: {
      fingerprint: str(row.secret?.fingerprint) ?? '',
      set_at: str(row.secret?.set_at) ?? String(w.created_at),
      previous_expires_at: row.previous_expires_at,
    },
    created_at: String(w.created_at),
    updated_at: String(w.updated_at),
    links: { deliveries: `/v1/webhooks/${String(w.id)}/deliveries` },
  };
}

export function deliveryView(d: Fields) {
  return {
    id: String(d.id),
    webhook_id: String(d.endpoint_id),
    event_id: String(d.event_id),
    event_type: String(d.event_type),
    status: String(d.status),
    attempt_count: num(d.attempt_count) ?? 0,
    last_status_code: num(d.last_status_code),
    last_latency_ms: num(d.last_latency_ms),
    last_error: str(d.last_error),
    last_attempt_at: str(d.last_attempt_at),
    next_retry_at: str(d.next_retry_at),
    redelivery_of: str(d.redelivery_of),
    created_at: String(d.created_at),
  };
}

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

export const eventTypeSchema: JsonSchema = { enum: [...EVENT_TYPES] };

export const endpointSchema: JsonSchema = {
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
};

export const deliverySchema: JsonSchema = {
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
};
