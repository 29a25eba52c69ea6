// Bearer authentication (spec section 5) and the per-route scope check.
import type { Graph } from '../../db/graph.js';
import { verifyKey, type UnknownKeyCache } from '../../auth/keys.js';
import { requireScope, type Scope } from '../../auth/scopes.js';
import { ApiError } from '../../errors/catalogue.js';
import type { ApiContext } from '../route.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="gks"' };

export async function authenticate(
  graph: Graph,
  ctx: ApiContext,
  scope: Scope | undefined,
  unknownKeys?: UnknownKeyCache,
): Promise<void> {
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
  const check = await verifyKey(graph, match[1], unknownKeys);
  if (!check.ok) {
    const message = {
      malformed: 'The API key is malformed; keys begin with gks_.',
      unknown: 'The API key is not recognised.',
      revoked: 'The API key has been revoked.',
    }[check.reason];
    throw new ApiError('unauthorized', message, { reason: check.reason }, CHALLENGE);
  }
  ctx.state.auth = check.auth;
  if (scope) requireScope(check.auth.scopes, scope);
}
