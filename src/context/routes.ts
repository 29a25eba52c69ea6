// The Context part of the Context & Slices area: compile a slice (inline or saved, also as
// POST /v1/slices/{id}/compile) into a context pack, or into a prose briefing through the briefing
// writer (built-in offline, or the configured LLM).
import { briefingProperties } from '../briefing/schema.js';
import { degradedHeaders } from '../search/schemas.js';
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import type { Actor } from '../auth/actor.js';
import { bodyActor } from '../http/records.js';
import { idParams } from '../http/schemas.js';
import { ApiError } from '../errors/catalogue.js';
import { createBriefingWriter, LlmEndpointError } from '../briefing/index.js';
import { paidWriter } from '../credits/paidWriter.js';
import { contextCompileBody, packSchema, sliceCompileBody } from './schemas.js';
import { briefPack, compileSlice, requestedSlice, savedSlice, type ResolvedSlice } from './service.js';

const TAG = 'Context & Slices';

const PACK_DESCRIPTION = [
  'Read-only (READ transactions). Candidates per plane: full-text hits of the query (or, with no query, the ' +
    "most recent items) inside the filters and time window, plus the subject's neighbourhood within hops and " +
    'the memories linked to it; committed items only, memories only while recallable (forget_after).',
  'Ranking per plane: score (Σ weight / (60 + rank) over the sources that found the item; weight 1, except a ' +
    "word hit, which weighs the share of the question's content words it holds, 0 below half), then the plane " +
    'tiebreak (memory kind; document title and chunk position; entity distance from the subject), then ' +
    'recency, then id. Duplicates by normalised text are dropped.',
  'Budget: tokens counted with the slice tokenizer (BPE) on the rendered text; the header and a truncation ' +
    'marker are reserved, each plane fills its share first-fit, unused budget spills over, and the final text ' +
    'is re-counted so used_tokens ≤ max_tokens.',
  'The same graph and request give the same pack bytes (only request_id differs); hashes as the memory ' +
    "briefing's: canonical JSON, SHA-256, no timestamps. 404 for an unknown slice_id, 409 (details.delta_id) " +
    'for a staged one.',
].join(' ');

/** A compile's answer: the pack, and the header that says when meaning was unavailable to rank it. */
async function packAnswer(deps: Deps, actor: Actor, resolved: ResolvedSlice, body: Parameters<typeof compileSlice>[3]) {
  const { pack, degraded } = await compileSlice(deps, actor.projectId, resolved, body);
  return { body: { ...pack }, headers: degradedHeaders(degraded) };
}

export function contextRoutes(deps: Deps) {
  const writer = createBriefingWriter(deps.config.llm);
  const briefContextAnswer = {
    type: 'object',
    properties: {
      ...briefingProperties,
      pack: packSchema,
    },
  } as const;
  return defineRoutes([
    route<typeof packSchema>({
      method: 'post',
      path: '/v1/slices/:id/compile',
      operationId: 'compileSlice',
      tag: TAG,
      scope: 'context:read',
      summary: 'Compile a saved slice into a token-budgeted, reproducible context pack (read-only)',
      description:
        'Runs in READ transactions only. 409 (details.delta_id) while the slice is staged. See POST ' +
        '/v1/context/compile for the pack.',
      params: idParams,
      body: sliceCompileBody,
      keyInTransaction: true,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: packSchema,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof sliceCompileBody>(deps, ctx);
        return packAnswer(deps, actor, await savedSlice(deps.graph, actor.projectId, ctx.params.id!), body);
      },
    }),
    route<typeof packSchema>({
      method: 'post',
      path: '/v1/context/compile',
      operationId: 'compileContext',
      tag: TAG,
      scope: 'context:read',
      summary: 'Compile an inline or saved slice into a token-budgeted, reproducible context pack',
      description: PACK_DESCRIPTION,
      body: contextCompileBody,
      keyInTransaction: true,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: packSchema,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof contextCompileBody>(deps, ctx);
        return packAnswer(deps, actor, await requestedSlice(deps.graph, actor.projectId, body), body);
      },
    }),
    route<typeof briefContextAnswer>({
      method: 'post',
      path: '/v1/context/brief',
      operationId: 'briefContext',
      tag: TAG,
      scope: 'context:read',
      summary: 'Compile a slice and turn the pack into a prose briefing',
      description:
        'Same body as /v1/context/compile. The pack items are the evidence, in pack order (memories by their ' +
        'kind, entities as facts, document chunks as observations), written by the built-in offline writer ' +
        '(model gks-briefing-builtin/1) or, when LLM_BASE_URL is set, by the configured LLM, which charges ' +
        'LLM_BRIEFING_CREDITS per briefing to the organization (402 credits_exhausted when short, refunded ' +
        'when the LLM fails). The pack is returned beside the briefing.',
      body: contextCompileBody,
      status: 200,
      errors: ['not_found', 'conflict', 'upstream_error', 'credits_exhausted'],
      response: briefContextAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof contextCompileBody>(deps, ctx);
        const resolved = await requestedSlice(deps.graph, actor.projectId, body);
        const compiled = await compileSlice(deps, actor.projectId, resolved, body);
        try {
          const paid = paidWriter(writer, deps.graph, actor, deps.config.llm.briefingCredits);
          return { body: await briefPack(paid, actor.projectId, compiled) };
        } catch (error) {
          if (error instanceof LlmEndpointError)
            throw new ApiError('upstream_error', error.message, { status: error.status ?? null });
          throw error;
        }
      },
    }),
  ]);
}
