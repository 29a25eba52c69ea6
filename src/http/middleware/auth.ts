// Bearer authentication (spec section 5) and the per-route scope check.
import type { Graph, StandingCheck } from '../../db/graph.js';
import { verifyKey, type KeyRefusal, type KnownKeyCache, type UnknownKeyCache } from '../../auth/keys.js';
import { hasScope, requireScope, type Scope } from '../../auth/scopes.js';
import { ApiError } from '../../errors/catalogue.js';
import type { ApiContext } from '../route.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="gks"' };

const REFUSALS: Record<KeyRefusal, string> = {
  malformed: 'The API key is malformed; keys begin with gks_.',
  unknown: 'The API key is not recognised.',
  revoked: 'The API key has been revoked.',
};

function refusal(reason: KeyRefusal): ApiError {
  return new ApiError('unauthorized', REFUSALS[reason], { reason }, CHALLENGE);
}

/**
 * Authenticates the request and checks the route's scope. With knownKeys (a route whose every effect is a graph
 * transaction), a key known valid is not read again here: the standing check returned is to be passed to
 * Graph.withStanding around the rest of the request, whose first transaction reads it.
 */
export async function authenticate(
  graph: Graph,
  ctx: ApiContext,
  scope: Scope | undefined,
  unknownKeys?: UnknownKeyCache,
  knownKeys?: KnownKeyCache,
): Promise<StandingCheck | undefined> {
  const header = ctx.get('Authorization');
  if (header === '') {
    throw new ApiError(
      'unauthorized',
      'Missing Authorization header; send Authorization: Bearer <API key>.',
      {},
      CHALLENGE,
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match || !match[1]) {
    throw new ApiError('unauthorized', 'The Authorization header must use the Bearer scheme.', {}, CHALLENGE);
  }
  const check = await verifyKey(
    graph,
    match[1],
    unknownKeys,
    knownKeys ? { keys: knownKeys, refuse: refusal } : undefined,
  );
  if (!check.ok) throw refusal(check.reason);
  ctx.state.auth = check.auth;
  if (scope) {
    const scopes = check.auth.scopes;
    // A key that lacks the scope may also have been revoked since it was known: that is what it is told.
    if (check.standing && !hasScope(scopes, scope))
      await graph.withStanding(check.standing, async () => requireScope(scopes, scope));
    else requireScope(scopes, scope);
  }
  return check.standing;
}
