// Corrections of indexed documents, each one governed write (origin correction): deletion of the
// document with its chunks, and re-indexing a changed source (new content, or a refetch of its URL)
// that replaces the chunks. A re-indexed document whose text changed since its last extraction
// shows status.outdated.
import crypto from 'node:crypto';
import type { Tx } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { tenantToken } from '../db/tenant.js';
import { DeltaDraft } from '../deltas/draft.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { conflict, invalid, notFound } from '../errors/catalogue.js';
import { chunkText, countTokens } from './ingest/index.js';
import { readSource } from './source.js';
import { CHUNK_OPTIONS, draftChunks, getDocument, type DocumentDeps } from './service.js';
import { CORRECTION_ORIGIN } from '../memories/corrections.js';

/** The committed document and its chunk ids, read under the document's write lock (cypher/documents/lock.cypher). */
async function lockedDocument(
  tx: Tx,
  projectId: string,
  id: string,
): Promise<{ props: Record<string, Plain>; chunkIds: string[] }> {
  const row = await tx.one<{ document: Record<string, Plain> }>('documents/lock', { id, project_id: projectId });
  if (!row) throw notFound('document', id);
  const chunks = await tx.run<{ id: string }>('documents/chunks', { document_id: id, project_id: projectId });
  return { props: row.document, chunkIds: chunks.map((c) => c.id) };
}

export async function deleteDocument(
  deps: DocumentDeps,
  actor: Actor,
  id: string,
  apply: boolean,
): Promise<WriteOutcome> {
  return writeGoverned(
    deps.graph,
    async (tx) => {
      const doc = await lockedDocument(tx, actor.projectId, id);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `delete document: ${String(doc.props.title ?? id)}`);
      for (const chunkId of doc.chunkIds) draft.deleteNode(chunkId);
      draft.deleteNode(id);
      return draft;
    },
    actor,
    apply,
  );
}

export interface ReindexInput {
  content?: string;
  refetch?: boolean;
}

/** New text for the document: the given content, or its URL fetched again; 409 when the text is unchanged. */
export async function reindexDocument(
  deps: DocumentDeps,
  actor: Actor,
  id: string,
  input: ReindexInput,
  apply: boolean,
): Promise<WriteOutcome & { chunkCount: number }> {
  const current = (await getDocument(deps.graph, actor.projectId, id)).document;
  const url = current.source_url ?? null;
  if (input.refetch && !url)
    throw invalid('/body/refetch', 'the document was not indexed from a URL; send content instead');
  const source = await readSource(input.refetch ? { url: url! } : { content: input.content! }, deps.config.fetch, {
    tenant: actor.projectId,
    limits: deps.config.pdf,
  });
  const hash = crypto.createHash('sha256').update(source.text).digest('hex');
  if (hash === current.content_hash) {
    throw conflict(`Document ${id} already holds this text (content_hash ${hash}); nothing to re-index.`, {
      document_id: id,
      content_hash: hash,
    });
  }
  const chunks = chunkText(source.text, CHUNK_OPTIONS);
  const tenant = tenantToken(actor.projectId);
  const outcome = await writeGoverned(
    deps.graph,
    async (tx) => {
      const doc = await lockedDocument(tx, actor.projectId, id);
      const draft = new DeltaDraft(CORRECTION_ORIGIN, `re-index document: ${String(doc.props.title ?? id)}`);
      for (const chunkId of doc.chunkIds) draft.deleteNode(chunkId);
      draftChunks(draft, id, chunks, tenant);
      draft.updateNode(id, {
        content_hash: hash,
        char_count: source.text.length,
        token_count: countTokens(source.text),
        chunk_count: chunks.length,
        size_bytes: source.sizeBytes,
        rag_ready: chunks.length > 0,
        final_url: source.finalUrl,
        reindexed_at: new Date(),
      });
      return draft;
    },
    actor,
    apply,
  );
  return { ...outcome, chunkCount: chunks.length };
}
