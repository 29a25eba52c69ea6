// The Search area: one ranked search across memories, document chunks and entities.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyOf } from '../http/app.js';
import { checkTypeLabel } from '../deltas/draft.js';
import { obj, projectIdField, stringSet } from '../http/schemas.js';
import { actorFor } from '../auth/actor.js';
import { edgeSchema, episodeField, MEMORY_KINDS } from '../memories/schemas.js';
import { PLANES, searchPlanes } from './service.js';
import { RRF_K } from './fusion.js';
import { onlyPlanesRead } from '../slices/schemas.js';
import {
  searchNodeSchema,
  asOfField,
  asOfInstant,
  knownAtField,
  knownAtInstant,
  degradedHeaders,
  degradedSchema,
  searchModeField,
  searchModeSchema,
} from './schemas.js';

const ids = stringSet(100, 64);

export const searchBody = obj(
  {
    query: { type: 'string', minLength: 1, maxLength: 2000 },
    planes: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: [...PLANES] },
      default: [...PLANES],
      description: 'Default: all three.',
    },
    filters: obj(
      {
        memory: obj({
          kinds: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...MEMORY_KINDS] } },
          episode: { ...episodeField, description: 'Only memories of this episode (its key: docs/episodes.md).' },
        }),
        document: obj({
          document_ids: ids,
          tags: {
            ...stringSet(50, 100),
            description: 'Documents in any of these collections (tags), matched by normalised name.',
          },
        }),
        entity: obj({
          types: {
            type: 'array',
            minItems: 1,
            maxItems: 50,
            uniqueItems: true,
            items: { type: 'string', pattern: '^[A-Z][A-Za-z0-9_]*$', maxLength: 64 },
            description: 'Entity labels: Person, Organization …',
          },
        }),
      },
      [],
      { description: 'Per-plane filters; a filter for a plane not searched is a 400.' },
    ),
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    mode: searchModeField,
    as_of: asOfField,
    known_at: knownAtField,
    project_id: projectIdField,
  },
  ['query'],
  {
    // filters.<plane> only when planes (default all) includes that plane.
    allOf: onlyPlanesRead(false),
  },
);

export function searchRoutes(deps: Deps) {
  const searchAnswer = {
    type: 'object',
    properties: {
      query: { type: 'string' },
      project_id: { type: 'string' },
      planes: { type: 'array', items: { enum: [...PLANES] } },
      nodes: { type: 'array', items: searchNodeSchema },
      edges: { type: 'array', items: edgeSchema },
      count: { type: 'integer' },
      mode: searchModeSchema,
      degraded: degradedSchema,
    },
  } as const;
  return defineRoutes([
    route<typeof searchAnswer>({
      method: 'post',
      path: '/v1/search',
      operationId: 'search',
      tag: 'Search',
      scope: 'search:read',
      summary: 'Ranked search across memories, document chunks and entities: words and meaning fused',
      description:
        'Each plane ranks its committed (and, for memories, still recallable) hits of the project twice: by ' +
        'words (its full-text index) and by meaning (its vector index; mode hybrid or semantic). The rankings ' +
        `are fused by reciprocal rank fusion: score = Σ weight / (${RRF_K} + rank), rank counted from 1 within each ` +
        "ranking; a meaning hit weighs 1, a word hit (hybrid) the share of the question's content words it holds, " +
        "0 below half. Order: results holding more of the question's identifiers verbatim first, then score, then " +
        'similarity, then lexical rank, then id (docs/recall.md). edges: committed relationships around the ' +
        'results (at most 25 per result).',
      body: searchBody,
      keyInTransaction: true,
      status: 200,
      errors: [],
      response: searchAnswer,
      handler: async (ctx) => {
        const body = bodyOf<typeof searchBody>(ctx);
        // A filter for a plane not searched is refused by the body schema (onlyPlanesRead).
        const filters = body.filters ?? {};
        // Entity types are the caller's; an engine label (Entity, Memory, Document ...) is not one.
        filters.entity?.types?.forEach((type, i) => checkTypeLabel(type, `/body/filters/entity/types/${i}`));
        const actor = await actorFor(deps, ctx, body.project_id, 'body');
        const { nodes, edges, mode, degraded } = await searchPlanes(deps, actor.projectId, {
          query: body.query,
          planes: body.planes,
          filters,
          limit: body.limit,
          mode: body.mode,
          ...(body.as_of !== undefined ? { asOf: asOfInstant(body.as_of, '/body/as_of')! } : {}),
          ...(body.known_at !== undefined ? { knownAt: knownAtInstant(body.known_at, '/body/known_at')! } : {}),
        });
        return {
          body: {
            query: body.query,
            project_id: actor.projectId,
            planes: body.planes,
            nodes,
            edges,
            count: nodes.length,
            mode,
            degraded,
          },
          headers: degradedHeaders(degraded),
        };
      },
    }),
  ]);
}
