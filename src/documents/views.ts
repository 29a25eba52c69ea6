// The document as the API shows it: a list item (docs/documents.md) and a single read (docs/documents.md), built
// from the flat properties of the :Document node.
import type { Answer } from '../http/answer.js';
import type { DOCUMENT_STAGES, DOCUMENT_TYPES, listItemSchema, sourceSchema } from './schemas.js';

/** A committed :Document node's properties, as documents/list and documents/get return them (declared, not checked). */
export interface DocumentProps {
  id: string;
  type: (typeof DOCUMENT_TYPES)[number];
  title: string;
  mime_type: string;
  size_bytes?: number | null;
  stage?: (typeof DOCUMENT_STAGES)[number] | null;
  content_hash?: string | null;
  /** The URL a document was fetched from (type url); refetch reads it again. */
  source_url?: string | null;
  last_extraction_hash?: string | null;
  last_extraction_shape?: string | null;
  rag_ready?: boolean | null;
  extraction_count?: number | null;
  extracted_token_count?: number | null;
  extracted_char_count?: number | null;
  added_by?: string | null;
  added_by_name?: string | null;
  created_at: string;
  updated_at: string;
}

/** A row of documents/get (and, with its collections and entity count, of documents/list). */
export interface DocumentRow {
  document: DocumentProps;
  pending_review: boolean;
  collections?: { id: string; name: string }[] | null;
  entity_count?: number | null;
}

export type ListItemView = Answer<typeof listItemSchema>;
export type SourceView = Answer<typeof sourceSchema>;
type StatusView = NonNullable<ListItemView['status']>;

const int = (value: number | null | undefined): number => (typeof value === 'number' ? value : 0);

/** stage, processing (an extraction runs), pendingReview (an extraction delta is staged), outdated. */
export function statusView(p: DocumentProps, pendingReview: boolean): StatusView {
  const stage = p.stage ?? 'indexed';
  const lastHash = p.last_extraction_hash ?? null;
  return {
    stage,
    processing: stage === 'extracting',
    pendingReview,
    outdated: lastHash !== null && lastHash !== p.content_hash,
  };
}

/** The fields the list item (docs/documents.md) and the single read (docs/documents.md) share, in the spec's order. */
function commonFields(p: DocumentProps, row: DocumentRow) {
  return {
    id: p.id,
    type: p.type,
    title: p.title,
    mimeType: p.mime_type,
    sizeBytes: int(p.size_bytes),
    status: statusView(p, row.pending_review === true),
  };
}

export function listItemView(row: DocumentRow): ListItemView {
  const p = row.document;
  return {
    ...commonFields(p, row),
    ragReady: p.rag_ready === true,
    extractionCount: int(p.extraction_count),
    entityCount: int(row.entity_count),
    // Documents written before names were always recorded fall back to the key id.
    addedByName: p.added_by_name ?? `key ${p.added_by ?? 'unknown'}`,
    addedAt: p.created_at,
    collections: (row.collections ?? []).map((c) => ({ id: c.id, name: c.name })),
    governanceStatus: 'active',
  };
}

export function sourceView(row: DocumentRow): SourceView {
  const p = row.document;
  return {
    ...commonFields(p, row),
    extractionCount: int(p.extraction_count),
    lastExtractionShape: p.last_extraction_shape ?? null,
    extractedTokenCount: int(p.extracted_token_count),
    extractedCharCount: int(p.extracted_char_count),
    addedBy: p.added_by!,
    addedAt: p.created_at,
    updatedAt: p.updated_at,
  };
}
