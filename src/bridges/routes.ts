// The Bridge area: map an external API's type system onto the ontology (propose, create, version,
// read) and turn its records into typed entities (map), every write a delta of origin "bridge".
import { actorFor } from '../auth/actor.js';
import { governedWriteFields, governedWriteStatus } from '../deltas/result.js';
import { bodyOf } from '../http/app.js';
import type { Deps } from '../http/deps.js';
import { requireScope } from '../auth/scopes.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyActor, listRoute, recordRoute } from '../http/records.js';
import type { Input } from '../http/input.js';
import { cursorPage, cursorQuery, governedWriteProperties, idParams, obj } from '../http/schemas.js';
import { stagedShapeView } from '../shapes/views.js';
import { bridgeListItem, bridgeView } from './views.js';
import {
  createBridgeBody,
  mapBody,
  proposeBody,
  proposeResponse,
  versionBridgeBody,
  versionBridgeFields,
  proposalSchema,
  bridgeSchema,
  unmappedSchema,
  proposalAnswer,
} from './schemas.js';
import { createBridge, loadBridge, mapRecords, planMapOnly, proposeFrom, versionBridge } from './service.js';
import type { Proposal, ProposeOptions } from './translate/index.js';
import { listBridges } from './store.js';
import { isPresent } from '../graph/views.js';

type Options = Partial<ProposeOptions>;
const withDefaults = (o: Options | undefined): ProposeOptions => ({ ...(o ?? {}), max_depth: o?.max_depth ?? 2 });
const countsSchema = obj(
  { created: { type: 'integer' }, updated: { type: 'integer' }, unchanged: { type: 'integer' } },
  ['created', 'updated', 'unchanged'],
);
const unresolvedSchema = {
  type: 'array',
  items: obj({
    record: { type: 'integer' },
    field: { type: 'string' },
    target_type: { type: 'string' },
    external_id: { type: 'string' },
  }),
} as const;

/** What a map dry run answers (200). */
const dryRunAnswer = {
  type: 'object',
  properties: { dry_run: { const: true }, counts: countsSchema, unresolved: unresolvedSchema },
} as const;

const listQuery = cursorQuery({ name: { type: 'string', minLength: 1, maxLength: 64 } });

/** What a create and a new version answer: the governed-write fields, the bridge, its shape and the proposal. */
const bridgeWriteFields = {
  ...governedWriteProperties,
  bridge: bridgeSchema,
  shape: { type: ['object', 'null'] },
  proposal: proposalAnswer,
  unmapped: unmappedSchema,
} as const;

export function bridgeRoutes(deps: Deps) {
  const createBridgeAnswer = { type: 'object', properties: bridgeWriteFields } as const;
  const listBridgesAnswer = cursorPage('bridges', bridgeSchema);
  const versionBridgeAnswer = {
    type: 'object',
    properties: { ...bridgeWriteFields, diff: { type: 'object' } },
  } as const;
  const mapBridgeRecordsAnswer = {
    type: 'object',
    properties: {
      ...governedWriteProperties,
      counts: countsSchema,
      unresolved: unresolvedSchema,
      entity_ids: { type: 'array', items: { type: 'string' } },
    },
  } as const;
  return defineRoutes([
    route<typeof proposeResponse>({
      method: 'post',
      path: '/v1/bridges/propose',
      operationId: 'proposeBridge',
      tag: 'Bridge',
      scope: 'bridges:read',
      summary: 'Propose a shape and mapping from an API description (read-only)',
      description:
        'OpenAPI 3.0/3.1, JSON Schema, GraphQL SDL or introspection JSON. Only local #/ references are ' +
        'followed: a remote $ref is a 400 naming its pointer. Nothing is stored. A source.url makes the ' +
        'server fetch it, so it also needs the bridges:write scope (403 otherwise).',
      body: proposeBody,
      status: 200,
      errors: ['upstream_error'],
      response: proposeResponse,
      handler: async (ctx) => {
        const body = bodyOf<typeof proposeBody>(ctx);
        // Fetching a URL is an outbound effect, not a read: it needs bridges:write, as creating a bridge does.
        if (body.source.url !== undefined) requireScope(ctx.state.auth?.scopes ?? [], 'bridges:write');
        await actorFor(deps, ctx, body.project_id, 'body');
        const proposed = await proposeFrom(deps, body.source, withDefaults(body.options));
        return { body: { proposal: proposed.proposal, unmapped: proposed.unmapped, source_digest: proposed.digest } };
      },
    }),
    route<typeof createBridgeAnswer>({
      method: 'post',
      path: '/v1/bridges',
      operationId: 'createBridge',
      tag: 'Bridge',
      scope: 'bridges:write',
      idempotent: true,
      summary: 'Create a bridge: its proposed shape and mapping in one delta (staged by default)',
      body: createBridgeBody,
      status: 201,
      errors: ['conflict', 'upstream_error'],
      response: createBridgeAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof createBridgeBody>(deps, ctx);
        const options = withDefaults(body.options);
        const proposed = await proposeFrom(deps, body.source, options);
        const result = await createBridge(deps, actor, body.name, proposed, options, body.apply ?? false);
        const failed = result.status === 'failed';
        // A failed write has no bridge: the field is left out (the published schema has no null for it).
        const bridge = failed
          ? {}
          : { bridge: bridgeView(await loadBridge(deps.graph, actor.projectId, result.bridgeId)) };
        return {
          status: governedWriteStatus(result),
          body: {
            ...governedWriteFields(actor, result, result.bridgeId),
            ...bridge,
            shape: failed ? null : stagedShapeView(result.shape, actor.projectId, result.definition, null),
            proposal: proposed.proposal,
            unmapped: proposed.unmapped,
          },
        };
      },
    }),
    listRoute<typeof listBridgesAnswer, typeof listQuery, 'bridges', 'newest'>(
      deps,
      {
        path: '/v1/bridges',
        operationId: 'listBridges',
        tag: 'Bridge',
        scope: 'bridges:read',
        summary: 'List the bridges of a project, newest first (committed and staged)',
        key: 'bridges',
        query: listQuery,
        response: listBridgesAnswer,
        order: 'newest',
      },
      async (actor, q, after) => {
        const rows = await listBridges(deps.graph, actor.projectId, {
          name: q.name ?? null,
          after: after ?? null,
          limit: q.limit,
        });
        return rows.map((r) => (isPresent(r.bridge) ? bridgeListItem(r.bridge) : null));
      },
      (b) => ({ c: String(b.created_at), i: String(b.id) }),
    ),
    recordRoute(
      deps,
      {
        path: '/v1/bridges/:id',
        operationId: 'getBridge',
        tag: 'Bridge',
        scope: 'bridges:read',
        summary: 'Read a bridge with its mappings and source digest',
        key: 'bridge',
        schema: bridgeSchema,
      },
      async (actor, id) => bridgeView(await loadBridge(deps.graph, actor.projectId, id)),
    ),
    route<typeof versionBridgeAnswer>({
      method: 'post',
      path: '/v1/bridges/:id/versions',
      operationId: 'versionBridge',
      tag: 'Bridge',
      scope: 'bridges:write',
      idempotent: true,
      summary: 'Publish a new version from a new source or an edited proposal',
      description:
        'The new shape version SUPERSEDES the old one; the mappings are replaced; diff lists types, ' +
        'properties and relationships added, removed and changed.',
      params: idParams,
      body: versionBridgeBody,
      status: 201,
      errors: ['not_found', 'conflict', 'upstream_error'],
      response: versionBridgeAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof versionBridgeFields>(deps, ctx);
        const id = ctx.params.id!;
        const options = withDefaults(body.options);
        const current = await loadBridge(deps.graph, actor.projectId, id);
        const proposed = body.source
          ? await proposeFrom(deps, body.source, options)
          : {
              proposal: {
                ...body.proposal!,
                format: body.proposal!.format ?? current.bridge.source_format,
              },
              unmapped: [],
              digest: current.bridge.source_digest,
              url: current.bridge.source_url ?? null,
            };
        const result = await versionBridge(deps, actor, id, normalizeProposal(proposed), options, body.apply ?? false);
        const failed = result.status === 'failed';
        return {
          status: governedWriteStatus(result),
          body: {
            ...governedWriteFields(actor, result, id),
            // A failed write has no bridge: the field is left out (the published schema has no null for it).
            ...(failed ? {} : { bridge: bridgeView(await loadBridge(deps.graph, actor.projectId, id)) }),
            shape: failed
              ? null
              : stagedShapeView(result.shape, actor.projectId, result.definition, current.bridge.shape_id),
            proposal: proposed.proposal,
            unmapped: proposed.unmapped,
            diff: result.diff,
          },
        };
      },
    }),
    route<typeof mapBridgeRecordsAnswer, typeof dryRunAnswer>({
      method: 'post',
      path: '/v1/bridges/:id/map',
      operationId: 'mapBridgeRecords',
      tag: 'Bridge',
      scope: 'bridges:write',
      idempotent: true,
      summary: 'Turn 1 to 1,000 records of one source type into entities (a governed write)',
      description:
        'Unknown records are created, known ones (by identity) update only changed properties and add ' +
        'missing relationships, identical ones stage nothing. Relationship targets resolve within the batch ' +
        'or against committed entities of the bridge; unresolved ones are reported, never invented. dry_run ' +
        'answers 200 with the counts and stages nothing.',
      params: idParams,
      body: mapBody,
      status: 201,
      errors: ['not_found', 'conflict'],
      alsoResponds: [
        {
          status: 200,
          description: 'dry_run: what would change; nothing staged',
          schema: dryRunAnswer,
        },
      ],
      response: mapBridgeRecordsAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof mapBody>(deps, ctx);
        const id = ctx.params.id!;
        if (body.dry_run === true) {
          const plan = await planMapOnly(deps, actor, id, body.record_type, body.records);
          return { status: 200, body: { dry_run: true, counts: plan.counts, unresolved: plan.unresolved } };
        }
        const result = await mapRecords(deps, actor, id, body.record_type, body.records, body.apply ?? false);
        return {
          status: governedWriteStatus(result),
          body: {
            ...governedWriteFields(actor, result, null),
            counts: result.plan.counts,
            unresolved: result.plan.unresolved,
            entity_ids: result.status === 'failed' ? [] : result.plan.entity_ids,
          },
        };
      },
    }),
  ]);
}

/** A proposal as a client may send it back edited (POST /v1/bridges/{id}/versions), its format known. */
type EditedProposal = Input<typeof proposalSchema> & { format: Proposal['format'] };

/** An edited proposal as the service builds them: defaults for the optional fields. */
function normalizeProposal<T extends { proposal: EditedProposal }>(p: T): Omit<T, 'proposal'> & { proposal: Proposal } {
  return {
    ...p,
    proposal: {
      ...p.proposal,
      entity_types: p.proposal.entity_types.map((t) => ({
        ...t,
        source_pointer: t.source_pointer ?? '',
        identity_source: t.identity_source ?? (t.identity_path ? 'hint' : 'none'),
        name_path: t.name_path ?? null,
        properties: t.properties.map((q) => ({ ...q, source_pointer: q.source_pointer ?? '' })),
      })),
      relationship_types: p.proposal.relationship_types.map((r) => ({
        ...r,
        source_pointer: r.source_pointer ?? '',
        inferred: r.inferred ?? false,
        target_identity_path: r.target_identity_path ?? null,
        direction: r.direction ?? 'out',
      })),
    },
  };
}
