// The Connections area: test a pasted token, create and manage connections, start syncs and read
// their runs and events. Secrets are write-only: no answer ever carries a token.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type ApiContext, route } from '../http/route.js';
import { sequencePage } from '../http/cursor.js';
import { recordRoute, requestActor } from '../http/records.js';
import { bodyOf, queryOf } from '../http/app.js';
import { type Actor } from '../auth/actor.js';
import { requireScope } from '../auth/scopes.js';
import { ApiError } from '../errors/catalogue.js';
import { afterSequenceQuery, governedWriteProperties, projectIdField, projectQuery } from '../http/schemas.js';
import { governedWriteFields, governedWriteStatus } from '../deltas/result.js';
import { createConnection, patchConnection, revokeConnection, runChecks, setPaused, testStored } from './service.js';
import { startSync, temporalClient } from './dispatch.js';
import { syncSchedule } from './schedules.js';
import { syncEvents } from './events.js';
import {
  connectionRow,
  listConnections,
  listSyncs,
  readConnection,
  syncOfConnection,
  type SyncProps,
} from './store.js';
import { connectionView, syncLinks, syncView, type ConnectionView } from './views.js';
import * as s from './schemas.js';

const TAG = 'Connections';
const connectionReply = { type: 'object', properties: { connection: s.connectionSchema } } as const;

/**
 * apply_if_safe makes every later sync apply its delta, so setting it is applying: the key needs
 * deltas:apply as well as connections:write (403 naming the scope), or connections:sync would apply
 * deltas its key could not apply itself.
 */
function requireApplyScope(ctx: ApiContext, policy: string | undefined): void {
  if (policy !== 'apply_if_safe') return;
  requireScope(ctx.state.auth?.scopes ?? [], 'deltas:apply');
  // A key whose writes stage may not make syncs apply on its behalf either.
  if (ctx.state.auth?.writes === 'stage')
    throw new ApiError('forbidden', "This key's writes stage for review; it may not set apply_if_safe.", {
      key_writes: 'stage',
    });
}

async function viewOf(deps: Deps, actor: Actor, id: string): Promise<ConnectionView> {
  return connectionView(await connectionRow(deps.graph, actor.projectId, id));
}

/** Brings the connection's Temporal schedule in line with its record (schedule_every, pause, revoke). */
async function reschedule(deps: Deps, actor: Actor, id: string, had: boolean): Promise<void> {
  const connection = await readConnection(deps.graph, actor.projectId, id);
  if (!connection.scheduleEvery && !had) return;
  await syncSchedule(await temporalClient(deps), deps.config, connection);
}

async function syncRecord(deps: Deps, actor: Actor, connectionId: string, syncId: string): Promise<SyncProps> {
  return syncOfConnection(deps.graph, actor.projectId, connectionId, syncId);
}

const limitQuery = {
  type: 'object',
  properties: { project_id: projectIdField, limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
  additionalProperties: false,
} as const;

export function connectionRoutes(deps: Deps) {
  const createConnectionAnswer = {
    type: 'object',
    properties: { ...governedWriteProperties, connection: { oneOf: [s.connectionSchema, { type: 'null' }] } },
  } as const;
  const listConnectionsAnswer = {
    type: 'object',
    properties: { connections: { type: 'array', items: s.connectionSchema } },
  } as const;
  const syncConnectionAnswer = {
    type: 'object',
    properties: {
      sync_id: { type: 'string' },
      delta_id: { type: 'string' },
      status: { const: 'queued' },
      resumed_from: { type: ['string', 'null'] },
      links: { type: 'object' },
    },
  } as const;
  const listConnectionSyncsAnswer = {
    type: 'object',
    properties: { syncs: { type: 'array', items: s.syncSchema } },
  } as const;
  const getConnectionSyncAnswer = { type: 'object', properties: { sync: s.syncSchema } } as const;
  const listConnectionSyncEventsAnswer = {
    type: 'object',
    properties: {
      sync_id: { type: 'string' },
      events: { type: 'array' },
      next_after_sequence: { type: 'integer' },
      has_more: { type: 'boolean' },
    },
  } as const;
  return defineRoutes([
    route<typeof s.testResult>({
      method: 'post',
      path: '/v1/connections/test',
      operationId: 'testConnectionToken',
      tag: TAG,
      scope: 'connections:write',
      summary: 'Check a pasted token against its platform; stores nothing',
      description:
        'Runs the checks reachable, authenticated and scope (the token only in a header, through the SSRF ' +
        'guard). A private address is refused (400) unless the service allows it.',
      body: s.testBody,
      status: 200,
      response: s.testResult,
      errors: ['invalid_request'],
      handler: async (ctx) => {
        const body = bodyOf<typeof s.testBody>(ctx);
        await requestActor(deps, ctx);
        const outcome = await runChecks(deps, body.kind, body.config, body.secret?.token ?? null);
        return {
          body: {
            ok: outcome.ok,
            checks: outcome.checks,
            identity: outcome.identity,
            latency_ms: outcome.latency_ms,
            status_reason: outcome.status_reason,
          },
        };
      },
    }),
    route<typeof createConnectionAnswer>({
      method: 'post',
      path: '/v1/connections',
      operationId: 'createConnection',
      tag: TAG,
      scope: 'connections:write',
      idempotent: true,
      summary: 'Create a connection (a governed write; the secret is sealed outside the delta)',
      description:
        'Answers the governed-write result and the connection (status untested). Without a configured ' +
        'secrets key: 503 secrets_unavailable. schedule.every starts a Temporal Schedule of syncs.',
      body: s.createBody,
      status: 201,
      response: createConnectionAnswer,
      errors: ['invalid_request', 'conflict', 'secrets_unavailable', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const body = bodyOf<typeof s.createBody>(ctx);
        requireApplyScope(ctx, body.apply_policy);
        const actor = await requestActor(deps, ctx);
        const { outcome, id } = await createConnection(deps, actor, body);
        if (outcome.status !== 'failed' && body.schedule) await reschedule(deps, actor, id, false);
        const connection = outcome.status === 'failed' ? null : await viewOf(deps, actor, id);
        return {
          status: governedWriteStatus(outcome),
          body: { ...governedWriteFields(actor, outcome, id), connection },
        };
      },
    }),
    route<typeof listConnectionsAnswer>({
      method: 'get',
      path: '/v1/connections',
      operationId: 'listConnections',
      tag: TAG,
      scope: 'connections:read',
      summary: 'List the connections of a project, newest first',
      query: limitQuery,
      status: 200,
      response: listConnectionsAnswer,
      errors: [],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const rows = await listConnections(deps.graph, actor.projectId, queryOf<typeof limitQuery>(ctx).limit);
        return { body: { connections: rows.map(connectionView) } };
      },
    }),
    recordRoute(
      deps,
      {
        path: '/v1/connections/:id',
        operationId: 'getConnection',
        tag: TAG,
        scope: 'connections:read',
        summary: 'Read a connection (its secret only as set, fingerprint and set_at)',
        key: 'connection',
        response: connectionReply,
      },
      (actor, id) => viewOf(deps, actor, id),
    ),
    route<typeof connectionReply>({
      method: 'patch',
      path: '/v1/connections/:id',
      operationId: 'updateConnection',
      tag: TAG,
      scope: 'connections:write',
      summary: 'Edit a connection',
      params: s.idParams,
      body: s.patchBody,
      status: 200,
      response: connectionReply,
      description:
        'config replaces the whole configuration. Moving base_url (or a feed url) to another scheme, host or ' +
        'port without a new secret is 409 secret_rebind_required. A new secret or configuration sets the ' +
        'status back to untested.',
      errors: [
        'invalid_request',
        'not_found',
        'conflict',
        'secret_rebind_required',
        'secrets_unavailable',
        'loop_dispatch_unavailable',
      ],
      handler: async (ctx) => {
        const body = bodyOf<typeof s.patchBody>(ctx);
        requireApplyScope(ctx, body.apply_policy);
        const actor = await requestActor(deps, ctx);
        const before = await readConnection(deps.graph, actor.projectId, ctx.params.id!);
        await patchConnection(deps, actor, ctx.params.id!, body);
        if (body.schedule !== undefined) await reschedule(deps, actor, ctx.params.id!, before.scheduleEvery !== null);
        return { body: { connection: await viewOf(deps, actor, ctx.params.id!) } };
      },
    }),
    route<typeof s.testResult>({
      method: 'post',
      path: '/v1/connections/:id/test',
      operationId: 'testConnection',
      tag: TAG,
      scope: 'connections:write',
      summary: "Check a connection's stored token; the outcome becomes its status",
      params: s.idParams,
      body: s.projectOnlyBody,
      status: 200,
      response: s.testResult,
      errors: ['not_found', 'conflict', 'secrets_unavailable'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const outcome = await testStored(deps, actor, ctx.params.id!);
        return {
          body: {
            ok: outcome.ok,
            checks: outcome.checks,
            identity: outcome.identity,
            latency_ms: outcome.latency_ms,
            status: outcome.status,
            status_reason: outcome.status_reason,
          },
        };
      },
    }),
    route<typeof syncConnectionAnswer>({
      method: 'post',
      path: '/v1/connections/:id/sync',
      operationId: 'syncConnection',
      tag: TAG,
      scope: 'connections:sync',
      idempotent: true,
      summary: 'Start a sync: a connectionSync workflow staging records into one delta',
      description:
        'Starts from the cursor of the last applied sync delta (full_refresh: from the start). A failed run ' +
        'whose delta is still staged is resumed from its next page. 409 sync_in_progress while a run is ' +
        "queued or running, or while the last run's delta awaits review. Syncs spend no credits.",
      params: s.idParams,
      body: s.syncBody,
      status: 202,
      response: syncConnectionAnswer,
      errors: ['not_found', 'conflict', 'sync_in_progress', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const opened = await startSync(
          deps,
          actor,
          ctx.params.id!,
          bodyOf<typeof s.syncBody>(ctx).full_refresh === true,
        );
        return {
          status: 202,
          body: {
            sync_id: opened.syncId,
            delta_id: opened.deltaId,
            status: 'queued',
            resumed_from: opened.resumedFrom,
            links: syncLinks(ctx.params.id!, opened.syncId, opened.deltaId),
          },
        };
      },
    }),
    route<typeof listConnectionSyncsAnswer>({
      method: 'get',
      path: '/v1/connections/:id/syncs',
      operationId: 'listConnectionSyncs',
      tag: TAG,
      scope: 'connections:read',
      summary: 'The sync runs of a connection, newest first',
      params: s.idParams,
      query: limitQuery,
      status: 200,
      response: listConnectionSyncsAnswer,
      errors: ['not_found'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        await readConnection(deps.graph, actor.projectId, ctx.params.id!);
        const syncs = await listSyncs(
          deps.graph,
          actor.projectId,
          ctx.params.id!,
          queryOf<typeof limitQuery>(ctx).limit,
        );
        return { body: { syncs: syncs.map(syncView) } };
      },
    }),
    route<typeof getConnectionSyncAnswer>({
      method: 'get',
      path: '/v1/connections/:id/syncs/:sync_id',
      operationId: 'getConnectionSync',
      tag: TAG,
      scope: 'connections:read',
      summary: 'One sync run',
      params: s.syncParams,
      query: projectQuery,
      status: 200,
      response: getConnectionSyncAnswer,
      errors: ['not_found'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        return { body: { sync: syncView(await syncRecord(deps, actor, ctx.params.id!, ctx.params.sync_id!)) } };
      },
    }),
    route<typeof listConnectionSyncEventsAnswer>({
      method: 'get',
      path: '/v1/connections/:id/syncs/:sync_id/events',
      operationId: 'listConnectionSyncEvents',
      tag: TAG,
      scope: 'connections:read',
      summary: 'Events of a sync run, from its workflow history',
      params: s.syncParams,
      query: afterSequenceQuery,
      status: 200,
      response: listConnectionSyncEventsAnswer,
      errors: ['not_found', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const sync = await syncRecord(deps, actor, ctx.params.id!, ctx.params.sync_id!);
        const q = queryOf<typeof afterSequenceQuery>(ctx);
        if (typeof sync.workflow_id !== 'string' || typeof sync.run_id !== 'string')
          return { body: { sync_id: sync.id, events: [], next_after_sequence: q.after_sequence, has_more: false } };
        const all = await syncEvents(
          await temporalClient(deps),
          deps.config.temporal.namespace,
          sync.workflow_id,
          sync.run_id,
          q.after_sequence + q.limit + 1,
        );
        return { body: { sync_id: sync.id, ...sequencePage(all, q.after_sequence, q.limit) } };
      },
    }),
    ...(['pause', 'resume'] as const).map((verb) =>
      route<typeof connectionReply>({
        method: 'post' as const,
        path: `/v1/connections/:id/${verb}`,
        operationId: `${verb}Connection`,
        tag: TAG,
        scope: 'connections:write' as const,
        summary: verb === 'pause' ? 'Pause a connection (no syncs; its schedule paused)' : 'Resume a paused connection',
        params: s.idParams,
        body: s.projectOnlyBody,
        status: 200,
        response: connectionReply,
        errors: ['not_found', 'conflict', 'loop_dispatch_unavailable'] as const,
        handler: async (ctx: ApiContext) => {
          const actor = await requestActor(deps, ctx);
          await setPaused(deps, actor, ctx.params.id!, verb === 'pause');
          await reschedule(deps, actor, ctx.params.id!, false);
          return { body: { connection: await viewOf(deps, actor, ctx.params.id!) } };
        },
      }),
    ),
    route<typeof connectionReply>({
      method: 'delete',
      path: '/v1/connections/:id',
      operationId: 'deleteConnection',
      tag: TAG,
      scope: 'connections:write',
      summary: 'Revoke a connection: destroys its secret and schedule; synced records stay',
      params: s.idParams,
      query: projectQuery,
      status: 200,
      response: connectionReply,
      errors: ['not_found', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const actor = await requestActor(deps, ctx);
        const before = await readConnection(deps.graph, actor.projectId, ctx.params.id!);
        await revokeConnection(deps, actor, ctx.params.id!);
        await reschedule(deps, actor, ctx.params.id!, before.scheduleEvery !== null);
        return { body: { connection: await viewOf(deps, actor, ctx.params.id!) } };
      },
    }),
  ]);
}
