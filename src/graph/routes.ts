// The Graph area (scope graph:read): pages of nodes and edges, one node with its neighbourhood,
// counts per label and relationship type. Committed data only unless include_pending=true.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type JsonSchema, route } from '../http/route.js';
import { queryActorOf } from '../http/records.js';
import { RECORD_LABELS } from '../deltas/draft.js';
import { queryOf } from '../http/app.js';
import { ApiError, invalid } from '../errors/catalogue.js';
import { decodeCursor, encodeCursor, FROM_START } from '../http/cursor.js';
import { cursorPage, cursorQuery, projectIdField, idParams } from '../http/schemas.js';
import { INTERNAL_PROPS } from '../deltas/props.js';
import { actorFor } from '../auth/actor.js';
import { countGraph, listEdges, listNodes, readNeighbourhood, type Page } from './service.js';
import { graphEdgeSchema, graphNodeSchema, type EdgeKey } from './views.js';
import { EDGE_WALK } from './edgeWalk.js';
import { asOfField, asOfInstant, knownAtField, knownAtInstant } from '../search/schemas.js';

const NAME = '^[A-Z][A-Za-z0-9_]*$';
const includePending = {
  type: 'boolean',
  default: false,
  description: 'Also return work staged in deltas not yet applied, marked pending: true.',
} as const satisfies JsonSchema;
/** include_pending beside known_at (the reads that take both). */
const includePendingOrKnown = {
  ...includePending,
  description: 'Also return work staged in deltas not yet applied, marked pending: true. Not with known_at (a 400).',
} as const satisfies JsonSchema;
/** known_at reads committed knowledge only (docs/facts.md): not with include_pending=true. */
const knownAtCommittedOnly = {
  if: { required: ['known_at', 'include_pending'], properties: { include_pending: { const: true } } },
  then: { properties: { include_pending: { const: false, 'x-reason': 'cannot be combined with known_at' } } },
} as const satisfies JsonSchema;
const label = {
  type: 'string',
  pattern: NAME,
  maxLength: 64,
  description: 'A node label: Person, Memory, Chunk, Entity …',
} as const satisfies JsonSchema;

/**
 * A page's body: its items, has_more, and the cursor of its last key (cursorOf); when no row read had one, the
 * cursor the request came with (resume: the same page, read again, as keysetPage does), else the start.
 */
function pageBody<K extends string, T, L, C extends Record<string, string>>(
  projectId: string,
  key: K,
  page: Page<T, L>,
  cursorOf: (last: L) => C,
  resume: C | null,
  start: C,
) {
  return {
    project_id: projectId,
    [key]: page.items,
    has_more: page.hasMore,
    next_cursor: page.hasMore ? encodeCursor(page.last !== null ? cursorOf(page.last) : (resume ?? start)) : null,
  } as { project_id: string; has_more: boolean; next_cursor: string | null } & Record<K, T[]>;
}

/** Which graph a read sees: committed or with pending work, as of a time, as known at a time (each field checked). */
function timeView(q: { include_pending: boolean; as_of?: string; known_at?: string }) {
  return {
    includePending: q.include_pending,
    asOf: asOfInstant(q.as_of, '/query/as_of') ?? null,
    knownAt: knownAtInstant(q.known_at, '/query/known_at', q.include_pending) ?? null,
  };
}

function checkLabel(value: string | undefined, field: string): void {
  // Engine records (deltas, keys, credits ...) are never graph nodes of a project.
  if (value !== undefined && RECORD_LABELS.has(value)) throw invalid(field, `${value} is an internal label`);
}

const countsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { project_id: projectIdField, include_pending: includePending },
} as const;

const edgesQuery = {
  ...cursorQuery({
    node_id: { type: 'string', minLength: 1, maxLength: 64 },
    type: { type: 'string', pattern: NAME, maxLength: 64, description: 'A relationship type: WORKS_FOR' },
    direction: { enum: ['out', 'in', 'both'], description: 'Only with node_id.' },
    include_pending: includePendingOrKnown,
    as_of: asOfField,
    known_at: knownAtField,
  }),
  allOf: [
    {
      if: { not: { required: ['node_id'] } },
      then: { properties: { direction: { not: {}, 'x-reason': 'applies only with node_id' } } },
    },
    knownAtCommittedOnly,
  ],
} as const;

const neighbourhoodQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    project_id: projectIdField,
    depth: { type: 'integer', enum: [1, 2], default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100, description: 'Most neighbours returned.' },
    include_pending: includePendingOrKnown,
    as_of: asOfField,
    known_at: knownAtField,
  },
  allOf: [knownAtCommittedOnly],
} as const;

const nodesQuery = {
  ...cursorQuery({
    label,
    property: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_.]*$',
      maxLength: 128,
      description: 'Required with value; not an internal property.',
      allOf: [{ not: { enum: [...INTERNAL_PROPS].sort() }, 'x-reason': 'is an internal property' }],
    },
    value: { type: 'string', maxLength: 1000, description: 'Required with property.' },
    include_pending: includePendingOrKnown,
    as_of: asOfField,
    known_at: knownAtField,
  }),
  allOf: [
    { if: { required: ['property'] }, then: { required: ['value'], 'x-reason': 'is required with property' } },
    { if: { required: ['value'] }, then: { required: ['property'], 'x-reason': 'is required with value' } },
    knownAtCommittedOnly,
  ],
} as const;

export function graphRoutes(deps: Deps) {
  const listGraphNodesAnswer = cursorPage('nodes', graphNodeSchema, { project_id: { type: 'string' } });
  const getGraphNodeAnswer = {
    type: 'object',
    properties: {
      project_id: { type: 'string' },
      node: graphNodeSchema,
      depth: { type: 'integer' },
      nodes: { type: 'array', items: graphNodeSchema },
      edges: { type: 'array', items: graphEdgeSchema },
      truncated: { type: 'boolean' },
    },
  } as const;
  const listGraphEdgesAnswer = cursorPage('edges', graphEdgeSchema, { project_id: { type: 'string' } });
  const countGraphAnswer = {
    type: 'object',
    properties: {
      project_id: { type: 'string' },
      node_count: { type: 'integer' },
      relationship_count: { type: 'integer' },
      labels: {
        type: 'array',
        items: { type: 'object', properties: { label: { type: 'string' }, count: { type: 'integer' } } },
      },
      relationship_types: {
        type: 'array',
        items: { type: 'object', properties: { type: { type: 'string' }, count: { type: 'integer' } } },
      },
    },
  } as const;
  return defineRoutes([
    route<typeof listGraphNodesAnswer>({
      method: 'get',
      path: '/v1/graph/nodes',
      operationId: 'listGraphNodes',
      tag: 'Graph',
      scope: 'graph:read',
      summary: "A page of the project's nodes, by label and one property value",
      description:
        'Ordered by id. property and value go together: nodes whose property equals value (compared as text; ' +
        'a list property matches when one element does).',
      query: nodesQuery,
      status: 200,
      errors: [],
      response: listGraphNodesAnswer,
      handler: async (ctx) => {
        const q = queryOf<typeof nodesQuery>(ctx);
        checkLabel(q.label, '/query/label');
        if (q.property !== undefined && INTERNAL_PROPS.has(q.property))
          throw invalid('/query/property', `${q.property} is an internal property`);
        if ((q.property === undefined) !== (q.value === undefined)) {
          const missing = q.property === undefined ? 'property' : 'value';
          throw new ApiError('invalid_request', 'property and value filter together; give both or neither.', {
            fields: [
              {
                field: `/query/${missing}`,
                reason: `is required with ${missing === 'property' ? 'value' : 'property'}`,
              },
            ],
          });
        }
        const actor = await actorFor(deps, ctx, q.project_id, 'query');
        const after = decodeCursor<{ i: string }>(q.cursor, { i: 'string' });
        const page = await listNodes(deps.graph, actor.projectId, {
          label: q.label,
          property: q.property,
          value: q.value,
          ...timeView(q),
          limit: q.limit,
          afterId: after?.i ?? '',
        });
        return { body: pageBody(actor.projectId, 'nodes', page, (i) => ({ i }), after, FROM_START.by_id) };
      },
    }),
    route<typeof getGraphNodeAnswer>({
      method: 'get',
      path: '/v1/graph/nodes/:id',
      operationId: 'getGraphNode',
      tag: 'Graph',
      scope: 'graph:read',
      summary: 'One node with its neighbourhood to depth 1 or 2',
      description:
        'nodes: the neighbours, nearest first (distance 1, then 2), in id order within a distance, at most ' +
        'limit; edges: every relationship among the node and those neighbours (at most 5000). truncated says ' +
        'whether either was cut.',
      params: idParams,
      query: neighbourhoodQuery,
      status: 200,
      errors: ['not_found'],
      response: getGraphNodeAnswer,
      handler: async (ctx) => {
        const { query: q, actor } = await queryActorOf<typeof neighbourhoodQuery>(deps, ctx);
        const around = await readNeighbourhood(deps.graph, actor.projectId, ctx.params.id!, {
          depth: q.depth,
          limit: q.limit,
          ...timeView(q),
        });
        return {
          body: {
            project_id: actor.projectId,
            node: around.node,
            depth: q.depth,
            nodes: around.nodes,
            edges: around.edges,
            truncated: around.truncated,
          },
        };
      },
    }),
    route<typeof listGraphEdgesAnswer>({
      method: 'get',
      path: '/v1/graph/edges',
      operationId: 'listGraphEdges',
      tag: 'Graph',
      scope: 'graph:read',
      summary: "A page of the project's relationships, by node and/or type",
      description:
        "Ordered by the source node's id, then the relationship's id (next_cursor continues after the last edge " +
        `shown). A page walks at most ${EDGE_WALK} nodes: in a project of many nodes and few relationships it ` +
        'may hold fewer edges than limit, or none, with has_more true; follow next_cursor until has_more is false. ' +
        'direction (default both) applies with node_id: out = the node is the source, in = the target.',
      query: edgesQuery,
      status: 200,
      errors: [],
      response: listGraphEdgesAnswer,
      handler: async (ctx) => {
        const q = queryOf<typeof edgesQuery>(ctx);
        if (q.direction !== undefined && q.node_id === undefined)
          throw invalid('/query/direction', 'applies only with node_id');
        const actor = await actorFor(deps, ctx, q.project_id, 'query');
        const after = decodeCursor<{ s: string; i: string }>(q.cursor, { s: 'string', i: 'string' });
        const from = after ?? FROM_START.by_source;
        const page = await listEdges(deps.graph, actor.projectId, {
          nodeId: q.node_id,
          type: q.type,
          direction: q.direction ?? 'both',
          ...timeView(q),
          limit: q.limit,
          after: { source: from.s, id: from.i },
        });
        const cursorOf = (last: EdgeKey) => ({ s: last.source, i: last.id });
        return { body: pageBody(actor.projectId, 'edges', page, cursorOf, after, FROM_START.by_source) };
      },
    }),
    route<typeof countGraphAnswer>({
      method: 'get',
      path: '/v1/graph/counts',
      operationId: 'countGraph',
      tag: 'Graph',
      scope: 'graph:read',
      summary: "Counts of the project's nodes per label and relationships per type",
      description:
        "Every label but the engine's (Knowledge, Pending) is counted, so an entity counts under Entity and " +
        'under its type (Person). Largest first.',
      query: countsQuery,
      status: 200,
      errors: [],
      response: countGraphAnswer,
      handler: async (ctx) => {
        const { query: q, actor } = await queryActorOf<typeof countsQuery>(deps, ctx);
        return {
          body: { project_id: actor.projectId, ...(await countGraph(deps.graph, actor.projectId, q.include_pending)) },
        };
      },
    }),
  ]);
}
