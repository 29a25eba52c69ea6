// Who is acting: the project a request acts on (resolved from its key and project_id) with the key
// and request ids that deltas and transactions record. Every area's routes start here.
import type { Graph } from '../db/graph.js';
import type { AuthContext } from './keys.js';
import { resolveProject } from './project.js';

export interface Actor {
  projectId: string;
  organizationId: string;
  keyId: string;
  requestId: string;
  /** The door a write came through when it is not the plain API: its deltas record this origin (docs/mcp.md). */
  via?: 'mcp';
  /** The key's writes always stage (gks key create --writes stage): a governed write never applies at once. */
  stageWrites?: boolean;
}

/** What actorFor needs of a request: its authentication and request id (an authenticated route's context). */
export interface ActingRequest {
  state: { auth?: AuthContext; requestId: string; via?: 'mcp' };
}

export async function actorFor(
  deps: { graph: Graph },
  ctx: ActingRequest,
  projectId: unknown,
  where: 'body' | 'query',
): Promise<Actor> {
  const auth = ctx.state.auth;
  if (!auth) throw new Error('actorFor called on a route without authentication');
  const ref = await resolveProject(deps.graph, auth, projectId, where);
  return {
    projectId: ref.projectId,
    organizationId: ref.organizationId,
    keyId: auth.keyId,
    requestId: ctx.state.requestId,
    ...(ctx.state.via ? { via: ctx.state.via } : {}),
    ...(auth.writes === 'stage' ? { stageWrites: true } : {}),
  };
}
