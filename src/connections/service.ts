// Connections: test a pasted token (stores nothing), create a connection (a governed write whose
// delta creates the :Connection node; the secret is sealed onto its engine-owned node in the same
// transaction), edit it (refusing to move the secret to another origin), pause, resume, revoke.
import crypto from 'node:crypto';
import { Ajv } from 'ajv';
import { addFormats } from '../shared/ajvFormats.js';
import { DeltaDraft } from '../deltas/draft.js';
import { writeGoverned, type Actor, type WriteOutcome } from '../deltas/service.js';
import { ApiError, conflict, invalid, notFound } from '../errors/catalogue.js';
import { validationError } from '../http/validation.js';
import { tenantToken } from '../db/tenant.js';
import type { Plain } from '../db/values.js';
import type { ConfigDeps, GraphDeps } from '../shared/deps.js';
import { CONNECTORS, callerFor, checksFrom } from './connectors/index.js';
import { firstUrl } from './connectors/httpJson.js';
import { UpstreamError } from './http.js';
import { CONFIG_SCHEMAS } from './schemas.js';
import {
  lockConnection,
  putSecret,
  readConnection,
  changeConnection,
  connectionWithToken,
  type ConnectionProps,
  type ConnectionRecord,
} from './store.js';
import type {
  CheckResult,
  ConnectionKind,
  ConnectionStatus,
  ConnectorConfig,
  HttpJsonConfig,
  StatusReason,
} from './types.js';

const ajv = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true }));
const configValidators = Object.fromEntries(
  Object.entries(CONFIG_SCHEMAS).map(([kind, schema]) => [kind, ajv.compile(schema)]),
);

export interface CreateInput {
  name: string;
  kind: ConnectionKind;
  config: ConnectorConfig;
  secret?: { token: string };
  target?: { route: 'document' | 'submission' };
  apply_policy?: 'stage' | 'apply_if_safe';
  schedule?: { every: string };
  apply?: boolean;
}

export interface PatchInput {
  name?: string;
  config?: ConnectorConfig;
  secret?: { token: string };
  target?: { route: 'document' | 'submission' };
  apply_policy?: 'stage' | 'apply_if_safe';
  schedule?: { every: string } | null;
}

export interface TestOutcome extends CheckResult {
  ok: boolean;
  latency_ms: number;
  status_reason: StatusReason | null;
}

/** A configuration checked against its kind's schema (PATCH sends it without the kind). */
export function checkConfig(kind: ConnectionKind, config: unknown): ConnectorConfig {
  const validate = configValidators[kind]!;
  if (!validate(config)) throw validationError(validate.errors ?? [], 'body/config');
  assertUrlsParse(kind, config as ConnectorConfig);
  return config as ConnectorConfig;
}

const URL_REASON = 'is not a URL the WHATWG URL parser accepts (for example an invalid host)';

/**
 * The published pattern admits a few strings the WHATWG URL parser refuses (a host of unassigned
 * code points, a malformed port): those are a 400 naming the field, never a failure later in a check or sync.
 */
export function assertUrlsParse(kind: ConnectionKind, config: ConnectorConfig): void {
  const field = kind === 'feed' ? '/body/config/url' : '/body/config/base_url';
  try {
    new URL(CONNECTORS[kind].baseUrl(config));
  } catch {
    throw invalid(field, URL_REASON);
  }
  if (kind !== 'http_json') return;
  const { path, base_url: base } = config as HttpJsonConfig;
  let url: URL;
  try {
    url = firstUrl(config as HttpJsonConfig, null);
  } catch {
    throw invalid('/body/config/path', 'does not form a URL with base_url that the WHATWG URL parser accepts');
  }
  // A path is a path: it never names a host, and never climbs out of base_url with dot segments.
  const segments = path.split(/[?#]/)[0]!.split('/');
  if (segments.some((seg) => /^(\.|%2e){1,2}$/i.test(seg)))
    throw invalid('/body/config/path', 'must not hold a "." or ".." segment (plain or percent-encoded)');
  if (url.origin !== new URL(base).origin)
    throw invalid('/body/config/path', "resolves to another host than base_url's; a path stays on base_url's origin");
}

/** The minimum schedule interval in milliseconds, from an ISO-8601 duration (PnDTnHnMnS). */
export function durationMs(every: string, field = '/body/schedule/every'): number {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(every);
  const ms = m
    ? ((Number(m[1] ?? 0) * 24 + Number(m[2] ?? 0)) * 60 * 60 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0)) * 1000
    : 0;
  if (ms < 60_000)
    throw new ApiError('invalid_request', `${field}: must be an ISO-8601 duration of at least PT1M`, {
      fields: [{ field, reason: 'must be an ISO-8601 duration of at least PT1M' }],
    });
  return ms;
}

/** Runs the connector's checks; the token only ever travels in a header. */
export async function runChecks(
  deps: ConfigDeps<'fetch'>,
  kind: ConnectionKind,
  config: ConnectorConfig,
  token: string | null,
): Promise<TestOutcome> {
  assertUrlsParse(kind, config);
  const started = performance.now();
  const ctx = { kind, config, token, since: null, heartbeat: () => undefined };
  let result: CheckResult;
  try {
    result = await CONNECTORS[kind].check(ctx, callerFor(ctx, deps.config.fetch));
  } catch (error) {
    // The SSRF guard refused the address: say so instead of pretending the host is down.
    if (error instanceof UpstreamError && error.reason === 'refused') throw invalid('/body/config', error.message);
    if (error instanceof UpstreamError) result = { checks: checksFrom(error.httpStatus), identity: null };
    else throw error;
  }
  const failed = result.checks.find((c) => !c.ok);
  const reason: StatusReason | null = !failed
    ? null
    : failed.name === 'reachable'
      ? 'unreachable'
      : failed.name === 'authenticated'
        ? 'auth_failed'
        : 'forbidden_scope';
  return {
    ...result,
    ok: !failed,
    latency_ms: Math.round((performance.now() - started) * 100) / 100,
    status_reason: reason,
  };
}

/** scheme://host:port of a URL: the origin a secret is bound to. */
function origin(url: string): string {
  return new URL(url).origin;
}

/** Writes that seal secrets; testing a stored connection also fetches through the SSRF guard. */
type ConnectionDeps = GraphDeps & ConfigDeps<'secrets' | 'fetch'>;

export async function createConnection(
  deps: GraphDeps & ConfigDeps<'secrets'>,
  actor: Actor,
  input: CreateInput,
): Promise<{ outcome: WriteOutcome; id: string }> {
  if (!deps.config.secrets.key)
    throw new ApiError(
      'secrets_unavailable',
      'No secrets key is configured (GKS_SECRETS_KEY), so no connection can be created: its secret is never ' +
        'stored in plaintext.',
    );
  if (input.schedule) durationMs(input.schedule.every);
  assertUrlsParse(input.kind, input.config);
  const id = crypto.randomUUID();
  const outcome = await writeGoverned(
    deps.graph,
    async (tx) => {
      const draft = new DeltaDraft('connection', `connection: ${input.kind} ${input.name}`);
      draft.createEngineNode(
        ['Connection'],
        {
          name: input.name,
          kind: input.kind,
          config_json: JSON.stringify(input.config),
          target_route: input.target?.route ?? 'document',
          apply_policy: input.apply_policy ?? 'stage',
          schedule_every: input.schedule?.every ?? null,
          status: 'untested',
          organization_id: actor.organizationId,
          created_by: actor.keyId,
          tenant: tenantToken(actor.projectId),
        },
        { id },
      );
      if (input.secret) {
        await putSecret(tx, deps.config.secrets, actor.projectId, id, input.secret.token);
      }
      return draft;
    },
    actor,
    input.apply !== false,
  );
  return { outcome, id };
}

export async function patchConnection(
  deps: GraphDeps & ConfigDeps<'secrets'>,
  actor: Actor,
  id: string,
  input: PatchInput,
): Promise<ConnectionRecord> {
  if (input.schedule) durationMs(input.schedule.every);
  await deps.graph.write(
    async (tx) => {
      // Judged against the connection as it is under its lock: an edit that moved it to another host with a new
      // secret, committing while this one waited, is what this one must compare with (else its config, checked
      // against the old host, would send that new secret back there).
      const current = await lockConnection(tx, actor.projectId, id);
      if (current.status === 'revoked')
        throw conflict(`Connection ${id} is revoked; create a new connection.`, {
          connection_id: id,
          status: 'revoked',
        });
      const config = input.config === undefined ? undefined : checkConfig(current.kind, input.config);
      const connector = CONNECTORS[current.kind];
      if (config && !input.secret && origin(connector.baseUrl(config)) !== origin(connector.baseUrl(current.config))) {
        throw new ApiError(
          'secret_rebind_required',
          `The new configuration sends requests to ${origin(connector.baseUrl(config))} instead of ` +
            `${origin(connector.baseUrl(current.config))}; send a new secret with this change so the old token ` +
            'never travels to another host.',
          {
            fields: [{ field: '/body/secret', reason: 'is required when the scheme, host or port changes' }],
          },
        );
      }
      if (input.secret && !deps.config.secrets.key)
        throw new ApiError(
          'secrets_unavailable',
          'No secrets key is configured (GKS_SECRETS_KEY); a new secret cannot be stored.',
        );
      const set: Record<string, Plain> = {};
      if (input.name !== undefined) set.name = input.name;
      if (config) set.config_json = JSON.stringify(config);
      if (input.target) set.target_route = input.target.route;
      if (input.apply_policy) set.apply_policy = input.apply_policy;
      if (input.schedule !== undefined) set.schedule_every = input.schedule?.every ?? null;
      if (input.secret || config)
        Object.assign(set, { status: current.status === 'paused' ? 'paused' : 'untested', status_reason: null });
      if (input.secret) {
        await putSecret(tx, deps.config.secrets, actor.projectId, id, input.secret.token);
      }
      await tx.run('connections/update', { id, project_id: actor.projectId, set, now: new Date().toISOString() });
    },
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'connection:patch' },
  );
  return readConnection(deps.graph, actor.projectId, id);
}

/** Tests a stored connection and records the outcome as its status (a paused one stays paused). */
export async function testStored(
  deps: ConnectionDeps,
  actor: Actor,
  id: string,
): Promise<TestOutcome & { status: ConnectionStatus }> {
  // The configuration and the token of one moment (connectionWithToken): the token goes only where it was set for.
  const read = await connectionWithToken(deps.graph, deps.config.secrets, actor.projectId, id);
  if (!read) throw notFound('connection', id);
  const { connection, token } = read;
  if (connection.status === 'revoked')
    throw conflict(`Connection ${id} is revoked; its secret is gone.`, { connection_id: id, status: 'revoked' });
  const outcome = await runChecks(deps, connection.kind, connection.config, token);
  // Recorded against the connection as it is now: one paused while the checks ran stays paused, one revoked is
  // left revoked.
  const status = await changeConnection(deps.graph, actor.projectId, id, (current) =>
    current.status === 'revoked'
      ? null
      : {
          status: current.status === 'paused' ? 'paused' : outcome.ok ? 'active' : 'error',
          status_reason: outcome.status_reason,
          tested_at: new Date().toISOString(),
        },
  );
  if (status === null) throw notFound('connection', id);
  return { ...outcome, status };
}

export async function setPaused(deps: GraphDeps, actor: Actor, id: string, paused: boolean): Promise<void> {
  await deps.graph.write(
    async (tx) => {
      const c = await lockConnection(tx, actor.projectId, id);
      if (c.status === 'revoked')
        throw conflict(`Connection ${id} is revoked.`, { connection_id: id, status: 'revoked' });
      if (paused && c.status !== 'paused')
        await tx.run('connections/update', {
          id,
          project_id: actor.projectId,
          now: new Date().toISOString(),
          set: { status: 'paused', prior_status: c.status },
        });
      if (!paused && c.status === 'paused') {
        const row = await tx.one<{ connection: ConnectionProps & { prior_status?: ConnectionStatus | null } }>(
          'connections/get',
          { id, project_id: actor.projectId },
        );
        const props = row!.connection;
        const prior = props.prior_status ?? 'untested';
        // A pause for the acting key's sake ends with the resuming key: scheduled syncs act as it from now on.
        const keyPause = props.status_reason === 'key_revoked' || props.status_reason === 'key_lacks_scope';
        await tx.run('connections/update', {
          id,
          project_id: actor.projectId,
          now: new Date().toISOString(),
          set: {
            status: prior,
            prior_status: null,
            acting_key_id: actor.keyId,
            ...(keyPause ? { status_reason: null } : {}),
          },
        });
      }
    },
    { request_id: actor.requestId, key_id: actor.keyId, purpose: paused ? 'connection:pause' : 'connection:resume' },
  );
}

export async function revokeConnection(deps: GraphDeps, actor: Actor, id: string): Promise<void> {
  const row = await deps.graph.write(
    (tx) => tx.one('connections/destroy_secret', { id, project_id: actor.projectId, now: new Date().toISOString() }),
    {
      request_id: actor.requestId,
      key_id: actor.keyId,
      purpose: 'connection:revoke',
    },
  );
  if (!row) throw new ApiError('not_found', `connection ${id} was not found`, { resource: 'connection', id });
}
