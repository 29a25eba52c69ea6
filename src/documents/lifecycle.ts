// The extraction lifecycle of a document, for loop activities (graph and ids, no HTTP context):
// read its chunks, then mark an extraction started and finished. The stage and extraction counts
// are operational metadata about the document, set directly rather than through a delta: they
// describe work on the document, not knowledge, and the extraction's output is itself a delta.
import type { Graph, Row } from '../db/graph.js';
import { notFound } from '../errors/catalogue.js';
import type { DocumentStage, DocumentType } from './schemas.js';

export interface DocumentChunks {
  document: {
    id: string;
    projectId: string;
    title: string;
    type: DocumentType;
    mimeType: string;
    stage: DocumentStage;
    contentHash: string;
    charCount: number;
    tokenCount: number;
  };
  /** In reading order; consecutive chunks overlap by up to 200 characters. */
  chunks: { id: string; index: number; text: string }[];
}

export interface ExtractionResult {
  /** Name of the shape extracted with (shown as lastExtractionShape). */
  shapeName: string;
  tokenCount: number;
  charCount: number;
  /** Set when the extraction failed: the reason. Counts and lastExtractionShape are then kept. */
  failed?: string;
}

/** The committed document and its committed chunks; 404 (ApiError not_found) when absent. */
export async function loadDocumentChunks(graph: Graph, projectId: string, documentId: string): Promise<DocumentChunks> {
  return graph.read(async (tx) => {
    // cypher/documents/get.cypher's row: the document's properties (declared, not checked).
    const row = await tx.one<{ document: Row }>('documents/get', { id: documentId, project_id: projectId });
    if (!row) throw notFound('document', documentId);
    const d = row.document;
    const chunks = await tx.run('documents/chunks', { document_id: documentId, project_id: projectId });
    return {
      document: {
        id: documentId,
        projectId,
        title: String(d.title),
        type: d.type as DocumentType,
        mimeType: String(d.mime_type),
        stage: d.stage as DocumentStage,
        contentHash: String(d.content_hash),
        charCount: Number(d.char_count),
        tokenCount: Number(d.token_count),
      },
      chunks: chunks.map((c) => ({ id: String(c.id), index: Number(c.index), text: String(c.text) })),
    };
  });
}

/** Stage extracting (status.processing true). */
export async function markExtractionStarted(graph: Graph, projectId: string, documentId: string): Promise<void> {
  await mark(
    graph,
    'documents/mark_extraction_started',
    { project_id: projectId, document_id: documentId },
    documentId,
  );
}

/**
 * Stage extracted: extraction count + 1, the shape's name, the extracted token and character
 * counts, and the hash of the text extracted (so a later change shows as outdated). With failed:
 * stage failed and the reason; nothing else changes.
 */
export async function markExtractionFinished(
  graph: Graph,
  projectId: string,
  documentId: string,
  result: ExtractionResult,
): Promise<void> {
  const base = { project_id: projectId, document_id: documentId };
  if (result.failed !== undefined) {
    await mark(graph, 'documents/mark_extraction_failed', { ...base, error: result.failed }, documentId);
    return;
  }
  await mark(
    graph,
    'documents/mark_extraction_finished',
    {
      ...base,
      shape_name: result.shapeName,
      token_count: result.tokenCount,
      char_count: result.charCount,
    },
    documentId,
  );
}

async function mark(
  graph: Graph,
  statement: string,
  params: Record<string, unknown>,
  documentId: string,
): Promise<void> {
  const row = await graph.write((tx) => tx.one(statement, { ...params, now: new Date().toISOString() }), {
    purpose: statement,
  });
  if (!row) throw notFound('document', documentId);
}
