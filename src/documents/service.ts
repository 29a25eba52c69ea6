// Documents: indexing (one delta per document: the document, its ordered chunks and its collections),
// committed reads, and the extraction lifecycle that loop activities drive.
import crypto from 'node:crypto';
import type { DocumentRow } from './views.js';
import type { Graph } from '../db/graph.js';
import { readPage } from '../http/cursor.js';
import { tenantToken } from '../db/tenant.js';
import { DeltaDraft } from '../deltas/draft.js';
import { writeGoverned, type Actor } from '../deltas/service.js';
import { ApiError, notFound } from '../errors/catalogue.js';
import { chunkText, countTokens, type Chunk } from './ingest/index.js';
import { cleanTags, resolveCollections } from './collections.js';
import { readSource, type DocumentInput } from './source.js';
import type { DocumentType } from './schemas.js';
import type { ConfigDeps, GraphDeps } from '../shared/deps.js';
import { requireVisibleShape } from '../shapes/store.js';
import { isPresent } from '../graph/views.js';

export type { DocumentInput, UploadedDocument } from './source.js';
export {
  loadDocumentChunks,
  markExtractionStarted,
  markExtractionFinished,
  type DocumentChunks,
  type ExtractionResult,
} from './lifecycle.js';

/** Chunking of every document: about 300 tokens a chunk, a sixth repeated as context. */
export const CHUNK_OPTIONS = { size: 1200, overlap: 200 } as const;

/**
 * Drafts a document's chunks: one :Chunk each, HAS_CHUNK from the document and NEXT in order. Used
 * by indexing, re-indexing and connection syncs; idOf gives deterministic ids where a sync needs them.
 */
export function draftChunks(
  draft: DeltaDraft,
  documentId: string,
  chunks: Chunk[],
  tenant: string,
  idOf?: (chunk: Chunk) => string,
): void {
  let previous: string | null = null;
  for (const chunk of chunks) {
    const chunkId = draft.createNode(
      ['Chunk'],
      {
        document_id: documentId,
        index: chunk.index,
        text: chunk.text,
        start: chunk.start,
        end: chunk.end,
        token_count: countTokens(chunk.text),
        tenant,
      },
      idOf ? { id: idOf(chunk) } : {},
    );
    draft.createRelationship(documentId, 'HAS_CHUNK', chunkId);
    if (previous !== null) draft.createRelationship(previous, 'NEXT', chunkId);
    previous = chunkId;
  }
}

/** A graph and the fetch (the SSRF guard) and PDF settings of the configuration. */
export type DocumentDeps = GraphDeps & ConfigDeps<'fetch' | 'pdf'>;

/** The fields of docs/documents.md (without request_id), and the delta that wrote the document. */
export interface CreatedDocument {
  id: string;
  status: 'indexed';
  project_id: string;
  document: { id: string; title: string; type: DocumentType; ragReady: boolean };
  deltaId: string;
  chunkCount: number;
}

/**
 * Indexes one document: reads the source (content, url or file), chunks its text and writes the
 * document, chunks and collections as one applied delta (origin document). chunk_text is updated
 * in the committing transaction and applySchema awaits every index at start, so the chunks answer
 * searches when this returns (ragReady).
 */
export async function createDocument(deps: DocumentDeps, actor: Actor, input: DocumentInput): Promise<CreatedDocument> {
  const tags = cleanTags(input.tags ?? []);
  const source = await readSource(input, deps.config.fetch, { tenant: actor.projectId, limits: deps.config.pdf });
  const chunks = chunkText(source.text, CHUNK_OPTIONS);
  const contentHash = crypto.createHash('sha256').update(source.text).digest('hex');
  const tenant = tenantToken(actor.projectId);
  let documentId = '';
  const outcome = await writeGoverned(
    deps.graph,
    async (tx) => {
      const key = await tx.one('documents/key_name', { key_id: actor.keyId });
      const draft = new DeltaDraft('document', `document: ${source.title}`);
      documentId = draft.createNode(['Document'], {
        title: source.title,
        type: source.type,
        mime_type: source.mimeType,
        size_bytes: source.sizeBytes,
        source_url: source.sourceUrl,
        final_url: source.finalUrl,
        filename: source.filename,
        tags: tags.map((t) => t.name),
        stage: 'indexed',
        char_count: source.text.length,
        token_count: countTokens(source.text),
        chunk_count: chunks.length,
        content_hash: contentHash,
        added_by: actor.keyId,
        added_by_name: typeof key?.name === 'string' ? key.name : `key ${actor.keyId}`,
        governance_status: 'active',
        rag_ready: chunks.length > 0,
        extraction_count: 0,
        extracted_token_count: 0,
        extracted_char_count: 0,
        tenant,
      });
      draftChunks(draft, documentId, chunks, tenant);
      for (const collection of await resolveCollections(tx, actor.projectId, draft, tags)) {
        draft.createRelationship(documentId, 'IN_COLLECTION', collection.id);
      }
      return draft;
    },
    actor,
    true,
  );
  if (outcome.status === 'failed')
    throw outcome.error ?? new ApiError('conflict', 'The document could not be written.');
  return {
    id: documentId,
    status: 'indexed',
    project_id: actor.projectId,
    document: { id: documentId, title: source.title, type: source.type, ragReady: chunks.length > 0 },
    deltaId: outcome.deltaId,
    chunkCount: chunks.length,
  };
}

export async function listDocuments(
  graph: Graph,
  projectId: string,
  options: { limit: number; after: { c: string; i: string } | null },
): Promise<(DocumentRow | null)[]> {
  const read = () =>
    graph.read((tx) =>
      tx.run<DocumentRow>('documents/list', {
        project_id: projectId,
        after_created_at: options.after?.c ?? null,
        after_id: options.after?.i ?? null,
        limit: options.limit + 1,
      }),
    );
  // A document deleted while the page was read has no properties (isPresent): null, for keysetPage.
  const rows = await readPage(read, options.limit, (r) => isPresent(r.document));
  return rows.map((r) => (isPresent(r.document) ? r : null));
}

export async function getDocument(graph: Graph, projectId: string, id: string): Promise<DocumentRow> {
  const row = await graph.read((tx) => tx.one<DocumentRow>('documents/get', { id, project_id: projectId }));
  if (!row || !isPresent(row.document)) throw notFound('document', id);
  return row;
}

/** The checks of the extraction handoff: the document is committed here and the shape is visible. */
export async function checkExtractable(
  graph: Graph,
  projectId: string,
  documentId: string,
  shapeId: string,
): Promise<void> {
  await graph.read(async (tx) => {
    if (!(await tx.one('documents/get', { id: documentId, project_id: projectId })))
      throw notFound('document', documentId);
    await requireVisibleShape(tx, projectId, shapeId, '/body/shape_id');
  });
}

/** Records the shape a document's extraction is requested through (read by POST /v1/extractions/shape). */
export async function requestExtraction(
  graph: Graph,
  projectId: string,
  documentId: string,
  shapeId: string,
): Promise<void> {
  await graph.write((tx) =>
    tx.run('documents/request_extraction', { id: documentId, project_id: projectId, shape_id: shapeId }),
  );
}
