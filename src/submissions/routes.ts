// POST /v1/submissions (docs/submissions.md): 201 with the governed-write result, route and submission.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyOf } from '../http/app.js';
import { ApiError } from '../errors/catalogue.js';
import { actorFor } from '../auth/actor.js';
import { requireScope } from '../auth/scopes.js';
import { discardFreshDelta } from '../deltas/service.js';
import { governedWriteFields, governedWriteStatus } from '../deltas/result.js';
import { createDocument } from '../documents/service.js';
import { planLoop, startLoop } from '../loops/service.js';
import { loopLinks } from '../loops/start.js';
import { submissionBody, submissionResult } from './schemas.js';
import { submitToDelta } from './service.js';
import { requireVisibleShape } from '../shapes/store.js';

export function submissionRoutes(deps: Deps) {
  return defineRoutes([
    route<typeof submissionResult>({
      method: 'post',
      path: '/v1/submissions',
      operationId: 'createSubmission',
      tag: 'Submissions',
      scope: 'submissions:write',
      idempotent: true,
      summary: 'Capture a note, event, form or payload through a delta, as a document, or as an extraction',
      body: submissionBody,
      status: 201,
      response: submissionResult,
      errors: [
        'conflict',
        'apply_not_supported_for_loops',
        'credits_exhausted',
        'loop_dispatch_unavailable',
        'upstream_error',
      ],
      handler: async (ctx) => {
        const body = bodyOf<typeof submissionBody>(ctx);
        const route = body.route ?? 'delta';
        if (body.content === undefined && body.payload === undefined) {
          throw new ApiError('invalid_request', 'A submission needs content or payload.', {
            fields: [{ field: '/body/content', reason: 'content or payload is required' }],
          });
        }
        if (route !== 'delta' && body.content === undefined) {
          throw new ApiError('invalid_request', `Route ${route} indexes text: content is required.`, {
            fields: [{ field: '/body/content', reason: `is required for route ${route}` }],
          });
        }
        // Routes document and extraction act in those areas' names, so they need their scopes too.
        const granted = ctx.state.auth?.scopes ?? [];
        if (route !== 'delta') requireScope(granted, 'documents:write');
        if (route === 'extraction') requireScope(granted, 'loops:run');
        const actor = await actorFor(deps, ctx, body.project_id, 'body');
        const submission = (entityIds: string[]) => ({ kind: body.kind, entity_ids: entityIds });

        if (route === 'delta') {
          const result = await submitToDelta(deps, actor, body, body.apply ?? true);
          return {
            status: governedWriteStatus(result),
            body: {
              ...governedWriteFields(actor, result, result.submissionId),
              route,
              submission: submission(result.status === 'failed' ? [] : result.entityIds),
            },
          };
        }

        if (route === 'document') {
          if (body.apply === false) {
            throw new ApiError('invalid_request', 'Documents are indexed at once; route document does not stage.', {
              fields: [{ field: '/body/apply', reason: 'must be true or omitted for route document' }],
            });
          }
          const doc = await createDocument(deps, actor, {
            content: body.content!,
            title: body.title ?? `${body.kind} submission`,
            ...(body.tags ? { tags: body.tags } : {}),
          });
          return {
            body: {
              id: doc.id,
              status: 'applied',
              project_id: actor.projectId,
              delta_id: doc.deltaId,
              applied: true,
              route,
              submission: submission([]),
              document: doc.document,
            },
          };
        }

        // route extraction: index the content, then extract it through the shape with a loop.
        if (body.apply === true) {
          throw new ApiError(
            'apply_not_supported_for_loops',
            'Route extraction runs a loop, which only stages its output; apply the delta after review.',
            { fields: [{ field: '/body/apply', reason: 'must be false or omitted for route extraction' }] },
          );
        }
        if (!body.shape_id) {
          throw new ApiError('invalid_request', 'Route extraction needs shape_id.', {
            fields: [{ field: '/body/shape_id', reason: 'is required for route extraction' }],
          });
        }
        // Check the shape before anything is written, so a bad one leaves no document behind.
        await deps.graph.read((tx) => requireVisibleShape(tx, actor.projectId, body.shape_id!, '/body/shape_id'));
        const doc = await createDocument(deps, actor, {
          content: body.content!,
          title: body.title ?? `${body.kind} submission`,
          ...(body.tags ? { tags: body.tags } : {}),
        });
        let started;
        try {
          const loopPlan = await planLoop(deps, actor, {
            kind: 'graph_extraction',
            goal: `Extract the ${body.kind} submission "${doc.document.title}"`,
            context: { source_ids: [doc.id] },
            schema: { shape_ids: [body.shape_id] },
          });
          started = await startLoop(deps, actor, loopPlan);
        } catch (error) {
          // No loop (402 credits, 503 dispatch, ...): the document the client never saw goes too.
          await discardFreshDelta(deps.graph, doc.deltaId, actor).catch((e: unknown) =>
            deps.logger.error(
              { err: (e as Error).message, delta_id: doc.deltaId },
              'submission: taking back the document failed',
            ),
          );
          throw error;
        }
        return {
          body: {
            id: doc.id,
            status: 'staged',
            project_id: actor.projectId,
            delta_id: started.deltaId,
            applied: false,
            route,
            submission: submission([]),
            loop_id: started.loopId,
            links: loopLinks(started.loopId, started.deltaId),
          },
        };
      },
    }),
  ]);
}
