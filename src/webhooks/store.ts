// The webhooks area's graph access: endpoints, their sealed secrets, deliveries.
import type { Graph, Row } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { notFound } from '../errors/catalogue.js';

export type Fields = Record<string, Plain>;

export interface EndpointRow {
  webhook: Fields;
  secret: Fields | null;
  previous_expires_at: string | null;
}

function endpointRow(row: Row): EndpointRow {
  return {
    webhook: row.webhook as Fields,
    secret: (row.secret as Fields | null) ?? null,
    previous_expires_at: typeof row.previous_expires_at === 'string' ? row.previous_expires_at : null,
  };
}

export async function readEndpoint(graph: Graph, projectId: string, id: string): Promise<EndpointRow> {
  const row = await graph.read((tx) => tx.one('webhooks/get', { id, project_id: projectId }));
  if (!row) throw notFound('webhook', id);
  return endpointRow(row);
}

export async function listEndpoints(
  graph: Graph,
  projectId: string,
  after: { c: string; i: string } | null,
  limit: number,
): Promise<EndpointRow[]> {
  const rows = await graph.read((tx) =>
    tx.run('webhooks/list', {
      project_id: projectId,
      after_created_at: after?.c ?? null,
      after_id: after?.i ?? null,
      limit,
    }),
  );
  return rows.map(endpointRow);
}

/** What webhooks/deliveries and webhooks/delivery_get return. */
interface DeliveryRow {
  delivery: Fields;
}

export async function listDeliveries(
  graph: Graph,
  projectId: string,
  endpointId: string,
  after: { c: string; i: string } | null,
  limit: number,
): Promise<Fields[]> {
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
): Promise<Fields> {
  const row = await graph.read((tx) =>
    tx.one<DeliveryRow>('webhooks/delivery_get', {
      project_id: projectId,
      endpoint_id: endpointId,
      delivery_id: deliveryId,
    }),
  );
  if (!row) throw notFound('delivery', deliveryId);
  return row.delivery;
}
