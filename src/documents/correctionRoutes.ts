// Corrections of the Documents area: delete a document with its chunks, and re-index a changed
// source. Both are governed writes (origin correction); apply false stages them for review.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyActor, queryActorOf } from '../http/records.js';
import { governedWriteSchema, idParams, obj, projectIdField } from '../http/schemas.js';
import { governedWriteFields, governedWriteStatus, recordWriteAnswer } from '../deltas/result.js';
import { deleteDocument, reindexDocument } from './corrections.js';

const common = { apply: { type: 'boolean', default: true }, project_id: projectIdField } as const;
const reindexBody = {
  description: 'Exactly one of content (the new text) or refetch true (fetch the document URL again).',
  oneOf: [
    obj({ content: { type: 'string', minLength: 1, maxLength: 5 * 1024 * 1024 }, ...common }, ['content']),
    obj({ refetch: { const: true }, ...common }, ['refetch']),
  ],
} as const;

const deleteQuery = obj(common);

export function documentCorrectionRoutes(deps: Deps) {
  const deleteDocumentAnswer = governedWriteSchema({ document_id: { type: 'string' } });
  const reindexDocumentAnswer = governedWriteSchema({
    document_id: { type: 'string' },
    chunk_count: { type: 'integer' },
  });
  return defineRoutes([
    route<typeof deleteDocumentAnswer>({
      method: 'delete',
      path: '/v1/documents/:id',
      operationId: 'deleteDocument',
      tag: 'Documents',
      scope: 'documents:write',
      summary: 'Delete a document and its chunks through one delta',
      description:
        'Entities extracted from it keep existing; their provenance links to the chunks go (revert restores ' +
        'them). apply=false stages the deletion.',
      params: idParams,
      query: deleteQuery,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: deleteDocumentAnswer,
      handler: async (ctx) => {
        const { query: q, actor } = await queryActorOf<typeof deleteQuery>(deps, ctx);
        const outcome = await deleteDocument(deps, actor, ctx.params.id!, q.apply);
        return recordWriteAnswer(actor, outcome, 'document_id', ctx.params.id!);
      },
    }),
    route<typeof reindexDocumentAnswer>({
      method: 'post',
      path: '/v1/documents/:id/reindex',
      operationId: 'reindexDocument',
      tag: 'Documents',
      scope: 'documents:write',
      summary: 'Re-index a changed source: new chunks replace the old ones through one delta',
      description:
        'New content, or refetch true for a document indexed from a URL (400 otherwise). 409 when the text ' +
        'is unchanged. Once applied, a document extracted before shows status.outdated until it is extracted ' +
        'again.',
      params: idParams,
      body: reindexBody,
      idempotent: true,
      status: 200,
      errors: ['not_found', 'conflict', 'payload_too_large', 'upstream_error'],
      response: reindexDocumentAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof reindexBody>(deps, ctx);
        const outcome = await reindexDocument(deps, actor, ctx.params.id!, body, body.apply ?? true);
        return {
          status: governedWriteStatus(outcome, 200),
          body: {
            ...governedWriteFields(actor, outcome, ctx.params.id!),
            document_id: ctx.params.id!,
            chunk_count: outcome.chunkCount,
          },
        };
      },
    }),
  ]);
}
