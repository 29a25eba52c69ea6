// The Memories area (docs/memories.md): create, read, search and synthesize.
import { briefingProperties } from '../briefing/schema.js';
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyActor, recordRoute } from '../http/records.js';
import { bodyOf } from '../http/app.js';
import { ApiError } from '../errors/catalogue.js';
import { governedWriteSchema } from '../http/schemas.js';
import { actorFor } from '../auth/actor.js';
import { governedWriteFields, governedWriteStatus } from '../deltas/result.js';
import { createBriefingWriter, LlmEndpointError } from '../briefing/index.js';
import { paidWriter } from '../credits/paidWriter.js';
import type { BriefingMemory } from '../briefing/types.js';
import { createMemories, getMemory, MEMORY_SHAPE_ID, type MemoryInput } from './service.js';
import { recallMemories } from './recall.js';
import { RECALL_CHANNELS } from './channels.js';
import {
  asOfInstant,
  knownAtInstant,
  degradedHeaders,
  matchSchema,
  searchModeSchema,
  degradedSchema,
  withProperties,
} from '../search/schemas.js';
import { memoryView } from './views.js';
import { edgeView } from '../graph/views.js';
import { createMemoryBody, edgeSchema, memoryNodeSchema, searchBody, synthesizeBody } from './schemas.js';

export function memoryRoutes(deps: Deps) {
  const writer = createBriefingWriter(deps.config.llm);
  const createMemoryAnswer = governedWriteSchema({
    memories: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: ['string', 'null'] },
          delta_entity_id: { type: 'string' },
          content: { type: 'string' },
          name: { type: 'string' },
          status: { enum: ['applied', 'staged', 'failed'] },
        },
      },
    },
    shape_id: { type: 'string' },
  });
  const searchMemoriesAnswer = {
    type: 'object',
    properties: {
      query: { type: 'string' },
      project_id: { type: 'string' },
      planes: { type: 'array', items: { type: 'string' } },
      nodes: {
        type: 'array',
        items: withProperties(memoryNodeSchema, { match: matchSchema }),
      },
      edges: { type: 'array', items: edgeSchema },
      count: { type: 'integer' },
      mode: searchModeSchema,
      degraded: degradedSchema,
      channels: {
        type: 'array',
        items: { enum: [...RECALL_CHANNELS] },
        description: 'The channels that ranked this answer (a channel asked for whose input is missing does not).',
      },
      time: {
        type: 'array',
        description: "The question's time expressions as the time channel read them: windows of UTC time.",
        items: {
          type: 'object',
          properties: {
            expression: { type: 'string' },
            from: { type: 'string', format: 'date-time' },
            to: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
  } as const;
  const synthesizeMemoriesAnswer = {
    type: 'object',
    properties: {
      ...briefingProperties,
    },
  } as const;
  return defineRoutes([
    route<typeof createMemoryAnswer>({
      method: 'post',
      path: '/v1/memories',
      operationId: 'createMemory',
      tag: 'Memories',
      scope: 'memories:write',
      summary: 'Store one memory, or a batch of 1 to 100, through one delta',
      description:
        'apply true (default) commits at once; apply false leaves the delta staged for review. A batch is ' +
        'atomic: one bad item is a 400 naming its index and field. A write that cannot be applied answers ' +
        '409 with status failed.',
      body: createMemoryBody,
      idempotent: true,
      keyInTransaction: true,
      status: 201,
      errors: ['conflict', 'not_found'],
      response: createMemoryAnswer,
      handler: async (ctx) => {
        const body = bodyOf<typeof createMemoryBody>(ctx);
        const { memories, shape_id, project_id, apply, ...single } = body;
        if (memories && single.content !== undefined) {
          throw new ApiError('invalid_request', 'Send either content (one memory) or memories (a batch), not both.', {
            fields: [{ field: '/body/content', reason: 'must be omitted when memories is given' }],
          });
        }
        if (!memories && single.content === undefined) {
          throw new ApiError('invalid_request', 'content is required (or memories for a batch).', {
            fields: [{ field: '/body/content', reason: 'is required' }],
          });
        }
        if (memories) {
          const stray = Object.keys(single).filter((k) => (single as Record<string, unknown>)[k] !== undefined);
          if (stray.length > 0) {
            throw new ApiError('invalid_request', 'Memory fields go inside each batch item when memories is given.', {
              fields: stray.map((k) => ({ field: `/body/${k}`, reason: 'must be inside each item of memories' })),
            });
          }
        }
        const actor = await actorFor(deps, ctx, project_id, 'body');
        const items = memories
          ? memories.map((input, i) => ({ input, field: `/body/memories/${i}` }))
          : [{ input: single as MemoryInput, field: '/body' }];
        const shapeId = shape_id ?? MEMORY_SHAPE_ID;
        const result = await createMemories(deps, actor, items, { apply, shapeId });
        const failed = result.status === 'failed';
        return {
          status: governedWriteStatus(result),
          body: {
            ...governedWriteFields(actor, result, memories ? null : (result.memories[0]?.id ?? null)),
            memories: result.memories.map((m) => ({
              id: failed ? null : m.id,
              delta_entity_id: m.delta_entity_id,
              content: m.content,
              name: m.name,
              status: result.status,
            })),
            shape_id: shapeId,
          },
        };
      },
    }),
    route<typeof searchMemoriesAnswer>({
      method: 'post',
      path: '/v1/memories/search',
      operationId: 'searchMemories',
      tag: 'Memories',
      scope: 'memories:read',
      summary: 'Ranked recall of committed, recallable memories: words and meaning fused (docs/recall.md)',
      body: searchBody,
      keyInTransaction: true,
      status: 200,
      errors: [],
      response: searchMemoriesAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof searchBody>(deps, ctx);
        const knownAt = knownAtInstant(body.known_at, '/body/known_at');
        const recalled = await recallMemories(deps, actor.projectId, {
          ...(knownAt !== undefined ? { knownAt } : {}),
          query: body.query,
          limit: body.limit,
          kinds: body.kinds,
          mode: body.mode,
          ...(body.as_of !== undefined ? { asOf: asOfInstant(body.as_of, '/body/as_of')! } : {}),
          ...(body.episode !== undefined ? { episode: body.episode } : {}),
          ...(body.channels !== undefined ? { channels: body.channels } : {}),
        });
        const nodes = recalled.memories.map((m) => ({
          ...memoryView(m.memory, 'search'),
          ...(m.match ? { match: m.match } : {}),
        }));
        return {
          body: {
            query: body.query ?? '',
            project_id: actor.projectId,
            planes: ['memory'],
            nodes,
            edges: recalled.edges.map((e) => edgeView(e, false)),
            count: nodes.length,
            mode: recalled.mode,
            degraded: recalled.degraded,
            channels: recalled.channels,
            time: recalled.time.map((w) => ({
              expression: w.expression,
              from: w.from.toISOString(),
              to: w.to.toISOString(),
            })),
          },
          headers: degradedHeaders(recalled.degraded),
        };
      },
    }),
    route<typeof synthesizeMemoriesAnswer>({
      method: 'post',
      path: '/v1/memories/synthesize',
      operationId: 'synthesizeMemories',
      tag: 'Memories',
      scope: 'memories:read',
      summary: 'A prose briefing from the memories that match a query',
      description:
        'Deterministic built-in writer by default (model gks-briefing-builtin/1); an OpenAI-compatible ' +
        'endpoint writes the prose from the same evidence set when LLM_BASE_URL is set; each briefing it ' +
        'writes is charged LLM_BRIEFING_CREDITS to the organization (402 credits_exhausted when short, ' +
        'refunded when the LLM fails). The built-in writer costs nothing.',
      body: synthesizeBody,
      status: 200,
      errors: ['upstream_error', 'credits_exhausted'],
      response: synthesizeMemoriesAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof synthesizeBody>(deps, ctx);
        const { memories } = await recallMemories(deps, actor.projectId, {
          query: body.query,
          limit: 50,
          kinds: undefined,
        });
        // The fused order is the retrieval order: its position is the score the selection ranks by.
        const candidates: BriefingMemory[] = memories.map(({ memory: p }, i) => ({
          id: p.id,
          kind: p.kind,
          name: p.name,
          content: p.content,
          created_at: p.created_at,
          ...(p.date_observed ? { date_observed: p.date_observed } : {}),
          subject: p.subject_name ?? null,
          object: p.object_name ?? null,
          score: memories.length - i,
        }));
        try {
          const paid = paidWriter(writer, deps.graph, actor, deps.config.llm.briefingCredits);
          const briefing = await paid.write({
            query: body.query,
            projectId: actor.projectId,
            candidates,
            maxEvidence: body.limit,
            now: new Date(),
          });
          return { body: { ...briefing } };
        } catch (error) {
          if (error instanceof LlmEndpointError)
            throw new ApiError('upstream_error', error.message, { status: error.status ?? null });
          throw error;
        }
      },
    }),
    recordRoute(
      deps,
      {
        path: '/v1/memories/:id',
        operationId: 'getMemory',
        tag: 'Memories',
        scope: 'memories:read',
        summary: 'Read one committed memory',
        key: 'memory',
        schema: memoryNodeSchema,
      },
      async (actor, id) => memoryView((await getMemory(deps, actor.projectId, id)).memory, 'single'),
    ),
  ]);
}
