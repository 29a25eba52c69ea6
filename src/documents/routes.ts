// The Documents area (docs/documents.md): index raw text, a URL or an uploaded file; list and read
// documents; hand a document over to extraction through a shape.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type ApiContext, route } from '../http/route.js';
import { bodyActor, newestFirstPage, recordRoute } from '../http/records.js';
import { bodyOf } from '../http/app.js';
import { invalid } from '../errors/catalogue.js';
import { encodeCursor, FROM_START, keysetPage } from '../http/cursor.js';
import { idParams } from '../http/schemas.js';
import { actorFor } from '../auth/actor.js';
import { splitTags } from './collections.js';
import { checkOneSource, type DocumentInput } from './source.js';
import { checkExtractable, createDocument, getDocument, listDocuments, requestExtraction } from './service.js';
import { listItemView, sourceView } from './views.js';
import {
  createDocumentBody,
  uploadFields,
  createResultSchema,
  extractBody,
  handoffSchema,
  listQuery,
  listResultSchema,
  sourceSchema,
} from './schemas.js';

/**
 * The JSON body (createDocumentBody) widened by a multipart upload's fields (uploadFields), whose tags are one
 * comma-separated string: kept by hand, as the union of the two would type content and url (`not: {}` there)
 * as unknown.
 */
interface CreateBody {
  content?: string;
  url?: string;
  title?: string;
  tags?: string[] | string;
  project_id?: string;
}

/** The request as a DocumentInput: JSON (tags an array) or multipart (one file, tags comma-separated). */
function documentInput(ctx: ApiContext): DocumentInput {
  const body: CreateBody = bodyOf<typeof createDocumentBody>(ctx);
  const upload = ctx.state.upload;
  let tags: string[] | undefined;
  if (typeof body.tags === 'string') {
    if (!upload)
      throw invalid('/body/tags', 'must be an array of strings (a comma-separated string is for multipart uploads)');
    tags = splitTags(body.tags);
  } else {
    tags = body.tags;
  }
  const input: DocumentInput = { content: body.content, url: body.url, title: body.title, tags };
  if (upload) input.file = { data: upload.data, mimeType: upload.mimeType, filename: upload.filename };
  checkOneSource(input);
  return input;
}

export function documentRoutes(deps: Deps) {
  return defineRoutes([
    route<typeof createResultSchema>({
      method: 'post',
      path: '/v1/documents',
      operationId: 'createDocument',
      tag: 'Documents',
      scope: 'documents:write',
      summary: 'Index raw text, a URL or an uploaded file as a document',
      description:
        'JSON with exactly one of content (type text) or url (type url; fetched over http(s) with a timeout, ' +
        'size cap and redirect cap; private addresses refused unless configured), or multipart/form-data ' +
        'with one file part (type file: text, Markdown, HTML, JSON or PDF) and optional title, tags ' +
        '(comma-separated) and project_id fields. The text is split into overlapping chunks; the document, ' +
        'its chunks (linked HAS_CHUNK and NEXT in order) and its collections (one per tag) are written as ' +
        'one applied delta (origin document). The answer comes once the chunks are searchable (ragReady).',
      body: createDocumentBody,
      multipart: true,
      multipartFields: uploadFields,
      idempotent: true,
      status: 201,
      errors: ['payload_too_large', 'upstream_error', 'conflict'],
      response: createResultSchema,
      handler: async (ctx) => {
        const input = documentInput(ctx);
        const actor = await actorFor(deps, ctx, bodyOf<typeof createDocumentBody>(ctx).project_id, 'body');
        const created = await createDocument(deps, actor, input);
        return {
          status: 201,
          body: { id: created.id, status: created.status, project_id: created.project_id, document: created.document },
        };
      },
    }),
    route<typeof listResultSchema>({
      method: 'get',
      path: '/v1/documents',
      operationId: 'listDocuments',
      tag: 'Documents',
      scope: 'documents:read',
      summary: 'List the committed documents of a project, newest first',
      description:
        'project_id comes from the query string (required with an organization-scoped key). Cursor ' +
        'pagination: pass next_cursor as cursor.',
      query: listQuery,
      status: 200,
      errors: [],
      response: listResultSchema,
      handler: async (ctx) => {
        const { query: q, actor, after } = await newestFirstPage<typeof listQuery>(deps, ctx);
        const rows = await listDocuments(deps.graph, actor.projectId, { limit: q.limit, after });
        const { items, ...paging } = keysetPage(
          rows.map((r) => r && listItemView(r)),
          q.limit,
          (s) => ({ c: String(s.addedAt), i: String(s.id) }),
          q.cursor ?? encodeCursor(FROM_START.newest),
        );
        return { body: { sources: items, ...paging } };
      },
    }),
    recordRoute(
      deps,
      {
        path: '/v1/documents/:id',
        operationId: 'getDocument',
        tag: 'Documents',
        scope: 'documents:read',
        summary: 'Read one committed document with its extraction counts',
        key: 'source',
        schema: sourceSchema,
      },
      async (actor, id) => sourceView(await getDocument(deps.graph, actor.projectId, id)),
    ),
    route<typeof handoffSchema>({
      method: 'post',
      path: '/v1/documents/:id/extract',
      operationId: 'extractDocument',
      tag: 'Documents',
      scope: 'documents:write',
      summary: 'Prepare a document for extraction through a shape (handoff)',
      description:
        'Checks that the document exists in the project (404) and the shape is visible to it (400 naming ' +
        '/body/shape_id), then answers 202 with the follow-up request to send: POST /v1/extractions/shape ' +
        'with project_id and source_file_id. Records the requested shape on the document (operational ' +
        'metadata), which the follow-up uses.',
      params: idParams,
      body: extractBody,
      status: 202,
      errors: ['not_found', 'conflict'],
      response: handoffSchema,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof extractBody>(deps, ctx);
        const documentId = ctx.params.id!;
        await checkExtractable(deps.graph, actor.projectId, documentId, body.shape_id);
        await requestExtraction(deps.graph, actor.projectId, documentId, body.shape_id);
        return {
          status: 202,
          body: {
            status: 'ready',
            document_id: documentId,
            next_action: {
              method: 'POST',
              path: '/v1/extractions/shape',
              body: { project_id: actor.projectId, source_file_id: documentId },
            },
          },
        };
      },
    }),
  ]);
}
