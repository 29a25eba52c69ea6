// The Extraction area (docs/loops.md): POST /v1/extractions/shape, the follow-up of a document's
// extract handoff, which starts (or plans) a graph_extraction loop through a shape.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyOf } from '../http/app.js';
import { ApiError } from '../errors/catalogue.js';
import { obj, projectIdField } from '../http/schemas.js';
import { actorFor } from '../auth/actor.js';
import { startOrPlan } from './start.js';
import { loopRequestBody, loopStartSchema, dryRunSchema } from './schemas.js';
import { extractionRequest } from './store.js';

/** The request; its loop options are the start request's (the llm extractor offered only with an LLM endpoint). */
const extractionBody = (llm: boolean) =>
  obj(
    {
      project_id: projectIdField,
      source_file_id: { type: 'string', minLength: 1, maxLength: 64 },
      shape_id: { type: 'string', minLength: 1, maxLength: 64 },
      goal: {
        type: 'string',
        minLength: 1,
        maxLength: 2000,
        pattern: '\\S',
        description: 'Default: extract the document through its shape. Not blank.',
      },
      loop: loopRequestBody(llm).properties.loop,
      dry_run: { type: 'boolean' },
    },
    ['source_file_id'],
  );

export function extractionRoutes(deps: Deps) {
  return defineRoutes([
    route<typeof loopStartSchema, typeof dryRunSchema>({
      method: 'post',
      path: '/v1/extractions/shape',
      operationId: 'startShapeExtraction',
      tag: 'Extraction',
      scope: 'loops:run',
      idempotent: true,
      summary: 'Extract a document through a shape (the follow-up of POST /v1/documents/{id}/extract)',
      description:
        'Starts a graph_extraction loop over source_file_id; shape_id defaults to the shape named in the ' +
        'extract handoff.',
      body: extractionBody(deps.config.llm.baseUrl !== undefined),
      status: 202,
      response: loopStartSchema,
      alsoResponds: [
        { status: 200, description: 'dry_run: the compiled plan; nothing started or spent', schema: dryRunSchema },
      ],
      errors: ['unsupported_loop_effort', 'credits_exhausted', 'loop_dispatch_unavailable', 'not_found'],
      handler: async (ctx) => {
        const body = bodyOf<ReturnType<typeof extractionBody>>(ctx);
        const actor = await actorFor(deps, ctx, body.project_id, 'body');
        const doc = await extractionRequest(deps.graph, actor.projectId, body.source_file_id);
        const shapeId = body.shape_id ?? doc.shapeId ?? undefined;
        if (!shapeId)
          throw new ApiError(
            'invalid_request',
            'shape_id is required: no shape was named by POST /v1/documents/{id}/extract for this document.',
            { fields: [{ field: '/body/shape_id', reason: 'is required' }] },
          );
        return startOrPlan(deps, actor, {
          kind: 'graph_extraction',
          goal: body.goal ?? `Extract ${doc.title ?? 'the document'} through its shape`,
          context: { source_ids: [body.source_file_id] },
          schema: { shape_ids: [shapeId] },
          ...(body.loop ? { loop: body.loop } : {}),
          ...(body.dry_run !== undefined ? { dry_run: body.dry_run } : {}),
        });
      },
    }),
  ]);
}
