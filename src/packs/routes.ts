// Saved context packs (Context & Slices): compiling stays read-only; POST /v1/context/packs compiles
// the same way and saves the pack through one governed write (origin "context") so the graph knows
// what a pack selected (the preflight selections check warns before such a memory is deleted).
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyActor, listRoute, recordRoute } from '../http/records.js';
import { cursorPage, cursorQuery } from '../http/schemas.js';
import { governedWriteFields, governedWriteStatus } from '../deltas/result.js';
import { savePackBody, savedPackSchema, savePackResponse } from './schemas.js';
import { committedPack, listPacks, savePack, savedPackView } from './service.js';
import { compileSlice, requestedSlice } from '../context/service.js';

const TAG = 'Context & Slices';

const listQuery = cursorQuery();

export function packRoutes(deps: Deps) {
  const listContextPacksAnswer = cursorPage('packs', savedPackSchema);
  return defineRoutes([
    route<typeof savePackResponse>({
      method: 'post',
      path: '/v1/context/packs',
      operationId: 'saveContextPack',
      tag: TAG,
      scope: 'context:write',
      summary: 'Compile a slice into a context pack and save the pack through one delta',
      description:
        'Same body as /v1/context/compile plus apply (default true; false stages the save). The pack is compiled ' +
        'exactly as /v1/context/compile would (READ transaction), then stored as :Knowledge:ContextPack (flat ' +
        'summary: pack_id, slice_id, slice_version, query, as_of, format, max_tokens, used_tokens, tokenizer, ' +
        'hash_structural, hash_operational, hash_denotative, item_count) -[:SELECTED {ref, section, rank}]-> each ' +
        'memory, chunk and entity it included, and -[:COMPILED_FROM]-> the saved slice when compiled from ' +
        'slice_id. Every save is a new pack record (id), even of an identical pack (same pack_id). 404 for an ' +
        'unknown slice_id, 409 (details.delta_id) for a staged slice, 409 with status failed when an item ' +
        'vanished between compile and save.',
      body: savePackBody,
      idempotent: true,
      status: 201,
      errors: ['not_found', 'conflict'],
      response: savePackResponse,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof savePackBody>(deps, ctx);
        const resolved = await requestedSlice(deps.graph, actor.projectId, body);
        const { pack } = await compileSlice(deps, actor.projectId, resolved, body);
        const result = await savePack(deps.graph, actor, pack, resolved.def.planes, body.apply);
        return {
          status: governedWriteStatus(result),
          body: { ...governedWriteFields(actor, result, result.id), pack: { id: result.id, ...pack } },
        };
      },
    }),
    listRoute<typeof listContextPacksAnswer, typeof listQuery, 'packs', 'newest'>(
      deps,
      {
        path: '/v1/context/packs',
        operationId: 'listContextPacks',
        tag: TAG,
        scope: 'context:read',
        summary: "List the project's saved (committed) context packs, newest first",
        description: 'Each pack as GET /v1/context/packs/{id} shows it, without selected (an empty list here).',
        key: 'packs',
        query: listQuery,
        response: listContextPacksAnswer,
        order: 'newest',
      },
      async (actor, q, after) =>
        (await listPacks(deps.graph, actor.projectId, { after: after ?? null, limit: q.limit })).map(savedPackView),
      (p) => ({ c: String(p.created_at), i: String(p.id) }),
    ),
    recordRoute(
      deps,
      {
        path: '/v1/context/packs/:id',
        operationId: 'getContextPack',
        tag: TAG,
        scope: 'context:read',
        summary: 'Read one saved context pack: its stored summary and what it selected',
        description:
          'selected lists the SELECTED links still present, in pack order; item_count is how many the pack selected ' +
          "when saved. A staged pack, an unknown id or another project's pack is a 404.",
        key: 'pack',
        schema: savedPackSchema,
      },
      (actor, id) => committedPack(deps.graph, actor, id),
    ),
  ]);
}
