// Bridges as the API shows them: flat graph properties back into options, unmapped parts and
// mappings; status from whether the bridge is still pending review.
import type { Plain } from '../db/values.js';
import type { BridgeRecord } from './service.js';

function parseOptions(text: Plain | undefined): Record<string, unknown> {
  try {
    return typeof text === 'string' ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function bridgeListItem(b: Record<string, Plain>): Record<string, unknown> {
  const pointers = Array.isArray(b.unmapped_pointers) ? b.unmapped_pointers.map(String) : [];
  const reasons = Array.isArray(b.unmapped_reasons) ? b.unmapped_reasons.map(String) : [];
  return {
    id: String(b.id),
    name: String(b.name),
    version: Number(b.version ?? 1),
    status: b.pending === true ? 'staged' : 'applied',
    delta_id: String(b.delta_id ?? ''),
    shape_id: String(b.shape_id ?? ''),
    source_format: String(b.source_format ?? ''),
    source_digest: String(b.source_digest ?? ''),
    source_url: typeof b.source_url === 'string' ? b.source_url : null,
    options: parseOptions(b.options),
    unmapped: pointers.map((pointer, i) => ({ pointer, reason: reasons[i] ?? '' })),
    type_count: Number(b.type_count ?? 0),
    relationship_count: Number(b.relationship_count ?? 0),
    created_at: typeof b.created_at === 'string' ? b.created_at : null,
    updated_at: typeof b.updated_at === 'string' ? b.updated_at : null,
  };
}

export function bridgeView(record: BridgeRecord): Record<string, unknown> {
  return { ...bridgeListItem(record.bridge), mappings: record.mappings };
}
