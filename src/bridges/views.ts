// Bridges as the API shows them: flat graph properties back into options, unmapped parts and
// mappings; status from whether the bridge is still pending review.
import type { Answer } from '../http/answer.js';
import type { bridgeSchema } from './schemas.js';
import type { BridgeRecord } from './service.js';
import type { BridgeProps } from './store.js';

export type BridgeView = Answer<typeof bridgeSchema>;

function parseOptions(text: string | null | undefined): Record<string, unknown> {
  try {
    return typeof text === 'string' ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function bridgeListItem(b: BridgeProps): BridgeView {
  const pointers = b.unmapped_pointers ?? [];
  const reasons = b.unmapped_reasons ?? [];
  return {
    id: b.id,
    name: b.name,
    version: b.version ?? 1,
    status: b.pending === true ? 'staged' : 'applied',
    delta_id: b.delta_id,
    shape_id: b.shape_id,
    source_format: b.source_format,
    source_digest: b.source_digest,
    source_url: b.source_url ?? null,
    options: parseOptions(b.options),
    unmapped: pointers.map((pointer, i) => ({ pointer, reason: reasons[i] ?? '' })),
    type_count: b.type_count ?? 0,
    relationship_count: b.relationship_count ?? 0,
    created_at: b.created_at ?? null,
    updated_at: b.updated_at ?? null,
  };
}

export function bridgeView(record: BridgeRecord): BridgeView {
  return { ...bridgeListItem(record.bridge), mappings: record.mappings };
}
