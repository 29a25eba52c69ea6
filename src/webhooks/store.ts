// The webhooks area's graph access: endpoints, their sealed secrets, deliveries.
import type { Graph } from '../db/graph.js';
import type { EventType } from './events.js';
import type { Plain } from '../db/values.js';
import { notFound } from '../errors/catalogue.js';
import { isPresent } from '../graph/views.js';

export type Fields = Record<string, Plain>;

/** A :WebhookEndpoint node's properties (declared, not checked). */
export interface EndpointProps {
  id: string;
  project_id: string;
  url: string;
  events: EventType[] | null;
  description?: string | null;
  enabled: boolean;
  disabled_reason?: string | null;
  disabled_at?: string | null;
  created_at: string;
  updated_at: string;
}

/** A :WebhookDelivery node's properties (declared, not checked). */
export interface DeliveryProps {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: EventType;
  status: 'pending' | 'retrying' | 'succeeded' | 'failed' | 'cancelled';
  attempt_count?: number | null;
  last_status_code?: number | null;
  last_latency_ms?: number | null;
  last_error?: string | null;
  last_attempt_at?: string | null;
  next_retry_at?: string | null;
  redelivery_of?: string | null;
  created_at: string;
}

/** What webhooks/get and webhooks/list return: the endpoint, its current secret's facts, the previous one's expiry. */
export interface EndpointRow {
  webhook: EndpointProps;
  secret: { fingerprint: string; set_at: string } | null;
  previous_expires_at: string | null;
}

export async function readEndpoint(graph: Graph, projectId: string, id: string): Promise<EndpointRow> {
  const row = await graph.read((tx) => tx.one<EndpointRow>('webhooks/get', { id, project_id: projectId }));
  if (!row || !isPresent(row.webhook)) throw notFound('webhook', id);
  return row;
}

export async function listEndpoints(
  graph: Graph,
  projectId: string,
  after: { c: string; i: string } | null,
  limit: number,
): Promise<EndpointRow[]> {
  return graph.read((tx) =>
    tx.run<EndpointRow>('webhooks/list', {
      project_id: projectId,
      after_created_at: after?.c ?? null,
      after_id: after?.i ?? null,
      limit,
    }),
  );
}

/** What webhooks/deliveries and webhooks/delivery_get return. */
export interface DeliveryRow {
  delivery: DeliveryProps;
}

export async function listDeliveries(
  graph: Graph,
  projectId: string,
  endpointId: string,
  after: { c: string; i: string } | null,
  limit: number,
): Promise<DeliveryProps[]> {
  const rows = await graph.read((tx) =>
    tx.run<DeliveryRow>('webhooks/deliveries', {
      project_id: projectId,
      endpoint_id: endpointId,
      after_created_at: after?.c ?? null,
      after_id: after?.i ?? null,
      limit,
    }),
  );
  return rows.map((r) => r.delivery);
}

export async function readDelivery(
  graph: Graph,
  projectId: string,
  endpointId: string,
  deliveryId: string,
): Promise<DeliveryProps> {
  const row = await graph.read((tx) =>
    tx.one<DeliveryRow>('webhooks/delivery_get', {
      project_id: projectId,
      endpoint_id: endpointId,
      delivery_id: deliveryId,
    }),
  );
  if (!row || !isPresent(row.delivery)) throw notFound('delivery', deliveryId);
  return row.delivery;
}
