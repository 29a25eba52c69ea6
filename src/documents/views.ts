// The document as the API shows it: a list item (docs/documents.md) and a single read (docs/documents.md), built
// from the flat properties of the :Document node.
import type { Plain } from '../db/values.js';
import type { Row } from '../db/graph.js';

type Props = Record<string, Plain>;

const int = (value: Plain | undefined): number => (typeof value === 'number' ? value : 0);

/** stage, processing (an extraction runs), pendingReview (an extraction delta is staged), outdated. */
export function statusView(p: Props, pendingReview: boolean): Record<string, Plain> {
  const stage = String(p.stage ?? 'indexed');
  const lastHash = p.last_extraction_hash ?? null;
  return {
    stage,
    processing: stage === 'extracting',
    pendingReview,
    outdated: lastHash !== null && lastHash !== p.content_hash,
  };
}

/** The fields the list item (docs/documents.md) and the single read (docs/documents.md) share, in the spec's order. */
function commonFields(p: Props, row: Row): Record<string, Plain> {
  return {
    id: p.id ?? null,
    type: p.type ?? null,
    title: p.title ?? null,
    mimeType: p.mime_type ?? null,
    sizeBytes: int(p.size_bytes),
    status: statusView(p, row.pending_review === true),
  };
}

export function listItemView(row: Row): Record<string, Plain> {
  const p = row.document as Props;
  return {
    ...commonFields(p, row),
    ragReady: p.rag_ready === true,
    extractionCount: int(p.extraction_count),
    entityCount: int(row.entity_count),
    // Documents written before names were always recorded fall back to the key id.
    addedByName: p.added_by_name ?? `key ${String(p.added_by ?? 'unknown')}`,
    addedAt: p.created_at ?? null,
    collections: ((row.collections as Props[] | null) ?? []).map((c) => ({ id: c.id ?? null, name: c.name ?? null })),
    governanceStatus: p.governance_status ?? 'active',
  };
}

export function sourceView(row: Row): Record<string, Plain> {
  const p = row.document as Props;
  return {
    ...commonFields(p, row),
    extractionCount: int(p.extraction_count),
    lastExtractionShape: p.last_extraction_shape ?? null,
    extractedTokenCount: int(p.extracted_token_count),
    extractedCharCount: int(p.extracted_char_count),
    addedBy: p.added_by ?? null,
    addedAt: p.created_at ?? null,
    updatedAt: p.updated_at ?? null,
  };
}
