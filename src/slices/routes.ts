// The Slices part of the Context & Slices area: saved, versioned scopes that context operations
// compile. Every change is a governed write (delta origin "slice") answering like docs/deltas.md.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { listRoute, queryActorOf, recordRoute } from '../http/records.js';
import type { Input } from '../http/input.js';
import { bodyOf } from '../http/app.js';
import { cursorPage, cursorQuery, applyQuery, idParams, governedWriteSchema } from '../http/schemas.js';
import { actorFor, type Actor } from '../auth/actor.js';
import { governedWriteFields, governedWriteStatus, recordWriteAnswer } from '../deltas/result.js';
import { SHAPE_NAME_PATTERN } from '../shapes/schemas.js';
import { normalizeDefinition, type SliceDefinition } from './definition.js';
import { createSliceBody, sliceSchema, versionSliceBody } from './schemas.js';
import { committedSlice, createSlice, deleteSlice, publishSliceVersion, type SliceWrite } from './service.js';
import { listSlices, sliceRecord } from './store.js';
import { sliceView, stagedSliceView } from './views.js';
import { isPresent } from '../graph/views.js';

const writeResponse = governedWriteSchema({ slice: { ...sliceSchema, type: ['object', 'null'] } });
const TAG = 'Context & Slices';

type DefinitionBody = Input<typeof versionSliceBody>;

const listQuery = cursorQuery({ name: { type: 'string', pattern: SHAPE_NAME_PATTERN, maxLength: 64 } });

/** The governed-write answer of a create or new version: the slice as committed, or as staged. */
async function sliceWriteResult(
  deps: Deps,
  actor: Actor,
  result: SliceWrite,
  def: SliceDefinition,
  supersedes: string | null,
) {
  const slice =
    result.status === 'failed'
      ? null
      : result.status === 'applied'
        ? sliceView(await committedSlice(deps.graph, actor, result.staged.id))
        : stagedSliceView(result.staged, actor.projectId, def, result.deltaId, supersedes);
  return {
    status: governedWriteStatus(result),
    body: { ...governedWriteFields(actor, result, result.staged.id), slice },
  };
}

/** The definition fields of a create or version body (name, project_id and apply are not part of it). */
function definitionOf(body: DefinitionBody & { name?: string }): SliceDefinition {
  const { project_id: _project, apply: _apply, name: _name, ...input } = body;
  return normalizeDefinition(input);
}

export function sliceRoutes(deps: Deps) {
  const listSlicesAnswer = cursorPage('slices', sliceSchema);
  const deleteSliceAnswer = governedWriteSchema({ slice_id: { type: 'string' } });
  return defineRoutes([
    route<typeof writeResponse>({
      method: 'post',
      path: '/v1/slices',
      operationId: 'createSlice',
      tag: TAG,
      scope: 'slices:write',
      summary: 'Save a slice (version 1) through one delta',
      description:
        'A slice is a saved scope: planes, per-plane filters, a subject and its neighbourhood (hops 0–2 over ' +
        'relationship_types), a time window, a default query, a token budget (max_tokens 256–128000, ' +
        'tokenizer, shares per plane summing to at most 1) and a format. Stored as :Knowledge:Slice, ' +
        'FOCUSES_ON its subject entity when given by id. apply false stages it. 409 when the name is taken ' +
        '(committed or staged).',
      body: createSliceBody,
      idempotent: true,
      status: 201,
      errors: ['conflict'],
      response: writeResponse,
      handler: async (ctx) => {
        const body = bodyOf<typeof createSliceBody>(ctx);
        const def = definitionOf(body);
        const actor = await actorFor(deps, ctx, body.project_id, 'body');
        return sliceWriteResult(
          deps,
          actor,
          await createSlice(deps.graph, actor, body.name, def, body.apply),
          def,
          null,
        );
      },
    }),
    listRoute<typeof listSlicesAnswer, typeof listQuery, 'slices', 'by_name'>(
      deps,
      {
        path: '/v1/slices',
        operationId: 'listSlices',
        tag: TAG,
        scope: 'slices:read',
        summary: "List the project's committed slices, by name then newest version first",
        key: 'slices',
        query: listQuery,
        response: listSlicesAnswer,
        order: 'by_name',
      },
      async (actor, q, after) => {
        const rows = await listSlices(deps.graph, actor.projectId, {
          name: q.name ?? null,
          after: after ?? null,
          limit: q.limit,
        });
        // A slice deleted while the page was read has no properties (isPresent): null for keysetPage.
        return rows.map((r) => (isPresent(r.slice) ? sliceView(sliceRecord(r)) : null));
      },
      (s) => ({ n: String(s.name), v: Number(s.version), i: String(s.id) }),
    ),
    recordRoute(
      deps,
      {
        path: '/v1/slices/:id',
        operationId: 'getSlice',
        tag: TAG,
        scope: 'slices:read',
        summary: 'Read one committed slice version',
        key: 'slice',
        schema: sliceSchema,
      },
      async (actor, id) => sliceView(await committedSlice(deps.graph, actor, id)),
    ),
    route<typeof writeResponse>({
      method: 'post',
      path: '/v1/slices/:id/versions',
      operationId: 'publishSliceVersion',
      tag: TAG,
      scope: 'slices:write',
      summary: 'Publish a new version of a slice from its latest version',
      description:
        'The body is the full new definition. The new :Slice (same name, version + 1) SUPERSEDES the given ' +
        'one, which stays readable. 409 when the given version is not the latest (or a newer one is staged).',
      params: idParams,
      body: versionSliceBody,
      idempotent: true,
      status: 201,
      errors: ['not_found', 'conflict'],
      response: writeResponse,
      handler: async (ctx) => {
        const body = bodyOf<typeof versionSliceBody>(ctx);
        const def = definitionOf(body);
        const actor = await actorFor(deps, ctx, body.project_id, 'body');
        const result = await publishSliceVersion(deps.graph, actor, ctx.params.id!, def, body.apply);
        return sliceWriteResult(deps, actor, result, def, result.previous.id);
      },
    }),
    route<typeof deleteSliceAnswer>({
      method: 'delete',
      path: '/v1/slices/:id',
      operationId: 'deleteSlice',
      tag: TAG,
      scope: 'slices:write',
      summary: 'Delete a slice version through one delta',
      description: 'apply=false stages the deletion for review. Other versions stay.',
      params: idParams,
      query: applyQuery,
      idempotent: true,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: deleteSliceAnswer,
      handler: async (ctx) => {
        const { query: q, actor } = await queryActorOf<typeof applyQuery>(deps, ctx);
        const result = await deleteSlice(deps.graph, actor, ctx.params.id!, q.apply);
        return recordWriteAnswer(actor, result, 'slice_id', result.slice.id);
      },
    }),
  ]);
}
