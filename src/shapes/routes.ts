// The Shapes part of the Ontology & Shapes area: list, read, create, publish a new version,
// retire and delete shapes. Every change is a governed write answering like docs/deltas.md.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type ApiContext, route } from '../http/route.js';
import { bodyActor, listRoute, queryActorOf, recordRoute } from '../http/records.js';
import { bodyOf } from '../http/app.js';
import { notFound } from '../errors/catalogue.js';
import { cursorPage, cursorQuery, applyQuery, idParams, governedWriteSchema } from '../http/schemas.js';
import { actorFor } from '../auth/actor.js';
import { governedWriteFields, governedWriteStatus, recordWriteAnswer } from '../deltas/result.js';
import type { Actor } from '../deltas/service.js';
import { checkDefinition, type Definition } from './definition.js';
import { createShapeBody, shapeActionBody, shapeSchema, shapeSummarySchema, versionBody } from './schemas.js';
import { createShape, deleteShape, publishVersion, retireShape, type ShapeWrite } from './service.js';
import { listShapes, loadShape } from './store.js';
import { shapeSummary, shapeView, stagedShapeView } from './views.js';
import { isPresent } from '../graph/views.js';

const writeResponse = governedWriteSchema({ shape: { ...shapeSchema, type: ['object', 'null'] } });

const listQuery = cursorQuery({
  name: { type: 'string', maxLength: 64 },
  status: { enum: ['draft', 'published', 'retired'] },
  latest: { type: 'boolean', default: false },
});

/** The governed-write result of a create or new version: the shape as committed, or as staged. */
async function shapeWriteResult(
  deps: Deps,
  actor: Actor,
  result: ShapeWrite,
  def: Definition,
  supersedes: string | null,
) {
  const failed = result.status === 'failed';
  const { staged } = result;
  const shape = failed
    ? null
    : result.status === 'applied'
      ? shapeView((await loadShape(deps.graph, staged.id, actor.projectId))!)
      : stagedShapeView(staged, actor.projectId, def, supersedes);
  return {
    status: governedWriteStatus(result),
    body: { ...governedWriteFields(actor, result, staged.id), shape },
  };
}

export function shapeRoutes(deps: Deps) {
  const listShapesAnswer = cursorPage('shapes', shapeSummarySchema);
  const deleteShapeAnswer = governedWriteSchema({ shape_id: { type: 'string' } });
  return defineRoutes([
    listRoute<typeof listShapesAnswer, typeof listQuery, 'shapes', 'by_name'>(
      deps,
      {
        path: '/v1/shapes',
        operationId: 'listShapes',
        tag: 'Ontology & Shapes',
        scope: 'shapes:read',
        summary: 'List the shapes the project sees: built-in ones and its own committed versions',
        description:
          'Ordered by name, then newest version first. latest=true keeps only versions no committed version ' +
          'supersedes.',
        key: 'shapes',
        query: listQuery,
        response: listShapesAnswer,
        order: 'by_name',
      },
      async (actor, q, after) => {
        const rows = await listShapes(deps.graph, actor.projectId, {
          name: q.name ?? null,
          status: q.status ?? null,
          latest: q.latest,
          after: after ?? null,
          limit: q.limit,
        });
        // A shape deleted while the page was read has no properties (isPresent): null for keysetPage.
        return rows.map((r) => (isPresent(r.shape) ? shapeSummary(r) : null));
      },
      (s) => ({ n: String(s.name), v: Number(s.version), i: String(s.id) }),
    ),
    route<typeof writeResponse>({
      method: 'post',
      path: '/v1/shapes',
      operationId: 'createShape',
      tag: 'Ontology & Shapes',
      scope: 'shapes:write',
      summary: 'Create a project shape (version 1) through one delta',
      description:
        'Stages the :Shape with its :EntityType, :PropertyDef and :RelationshipType nodes (DEFINES, ' +
        'HAS_PROPERTY) in one delta; apply true (default) commits it. 409 when the name is taken (by a ' +
        'built-in shape or a committed or staged one of the project).',
      body: createShapeBody,
      idempotent: true,
      status: 201,
      errors: ['conflict'],
      response: writeResponse,
      handler: async (ctx) => {
        const body = bodyOf<typeof createShapeBody>(ctx);
        const def = checkDefinition(body);
        const actor = await actorFor(deps, ctx, body.project_id, 'body');
        const result = await createShape(deps, actor, body.name, def, body.apply);
        return shapeWriteResult(deps, actor, result, def, null);
      },
    }),
    recordRoute(
      deps,
      {
        path: '/v1/shapes/:id',
        operationId: 'getShape',
        tag: 'Ontology & Shapes',
        scope: 'shapes:read',
        summary: 'Read one shape with its full definition',
        key: 'shape',
        schema: shapeSchema,
      },
      async (actor, id) => {
        const shape = await loadShape(deps.graph, id, actor.projectId);
        if (!shape) throw notFound('shape', id);
        return shapeView(shape);
      },
    ),
    route<typeof writeResponse>({
      method: 'post',
      path: '/v1/shapes/:id/versions',
      operationId: 'publishShapeVersion',
      tag: 'Ontology & Shapes',
      scope: 'shapes:write',
      summary: 'Publish a new version of a project shape from its latest version',
      description:
        'The body is the full new definition. The new :Shape (same name, version + 1) SUPERSEDES the given ' +
        'one, which stays readable. 403 for built-in shapes; 409 when the given version is not the latest ' +
        '(or a newer one is staged).',
      params: idParams,
      body: versionBody,
      idempotent: true,
      status: 201,
      errors: ['not_found', 'forbidden', 'conflict'],
      response: writeResponse,
      handler: async (ctx) => {
        const body = bodyOf<typeof versionBody>(ctx);
        const def = checkDefinition(body);
        const actor = await actorFor(deps, ctx, body.project_id, 'body');
        const result = await publishVersion(deps, actor, ctx.params.id!, def, body.apply);
        return shapeWriteResult(deps, actor, result, def, result.previous.id);
      },
    }),
    route<typeof writeResponse>({
      method: 'post',
      path: '/v1/shapes/:id/retire',
      operationId: 'retireShape',
      tag: 'Ontology & Shapes',
      scope: 'shapes:write',
      summary: 'Retire a shape version: kept and readable, no longer part of the ontology',
      description: 'Allowed while the shape is in use (the way out when DELETE answers 409). 403 for built-in shapes.',
      params: idParams,
      body: shapeActionBody,
      idempotent: true,
      status: 200,
      errors: ['not_found', 'forbidden', 'conflict'],
      response: writeResponse,
      handler: async (ctx: ApiContext) => {
        const { body, actor } = await bodyActor<typeof shapeActionBody>(deps, ctx);
        const result = await retireShape(deps, actor, ctx.params.id!, body.apply);
        const shape =
          result.status === 'applied' ? await loadShape(deps.graph, result.shape.id, actor.projectId) : result.shape;
        return {
          status: governedWriteStatus(result, 200),
          body: { ...governedWriteFields(actor, result, result.shape.id), shape: shape ? shapeView(shape) : null },
        };
      },
    }),
    route<typeof deleteShapeAnswer>({
      method: 'delete',
      path: '/v1/shapes/:id',
      operationId: 'deleteShape',
      tag: 'Ontology & Shapes',
      scope: 'shapes:write',
      summary: 'Delete a shape version and its definition through one delta',
      description:
        'Refused with 409 while anything uses it: committed nodes whose shape_id is this shape, or staged ' +
        'deltas that add such nodes or USES_SHAPE it (details.used_by names them). 403 for built-in shapes. ' +
        'apply=false stages the deletion for review.',
      params: idParams,
      query: applyQuery,
      idempotent: true,
      status: 200,
      errors: ['not_found', 'forbidden', 'conflict'],
      response: deleteShapeAnswer,
      handler: async (ctx) => {
        const { query: q, actor } = await queryActorOf<typeof applyQuery>(deps, ctx);
        const result = await deleteShape(deps, actor, ctx.params.id!, q.apply);
        return recordWriteAnswer(actor, result, 'shape_id', result.shape.id);
      },
    }),
  ]);
}
