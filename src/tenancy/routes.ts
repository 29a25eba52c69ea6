// GET /v1/project: which project (and key) a request acts as, resolved exactly as every
// project-scoped endpoint resolves it. Lets a client check its key and project_id.
import { resolveProject } from '../auth/project.js';
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { projectQuery } from '../http/schemas.js';
import { queryOf } from '../http/app.js';
import { projectName } from './service.js';

export function tenancyRoutes(deps: Deps) {
  const getCurrentProjectAnswer = {
    type: 'object',
    properties: {
      project: {
        type: 'object',
        properties: { id: { type: 'string' }, name: { type: 'string' }, organization_id: { type: 'string' } },
      },
      key: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          scoped_to: { enum: ['project', 'organization'] },
          scopes: { type: 'array', items: { type: 'string' } },
          writes: {
            enum: ['apply', 'stage'],
            description:
              'stage: every governed write of this key stages for review whatever it asks (gks key create ' +
              '--writes stage), and it may not apply or revert deltas.',
          },
        },
      },
    },
  } as const;
  return defineRoutes([
    route<typeof getCurrentProjectAnswer>({
      method: 'get',
      path: '/v1/project',
      operationId: 'getCurrentProject',
      tag: 'Projects',
      summary: 'The project this request acts on, and the key used',
      query: projectQuery,
      status: 200,
      errors: ['not_found'],
      response: getCurrentProjectAnswer,
      handler: async (ctx) => {
        const auth = ctx.state.auth!; // set by authenticate() on every authenticated route
        const ref = await resolveProject(deps.graph, auth, queryOf<typeof projectQuery>(ctx).project_id, 'query');
        const name = await projectName(deps.graph, ref.projectId);
        return {
          body: {
            // The document types name as a string: a project without one leaves it out rather than answer null.
            project: { id: ref.projectId, ...(name !== null ? { name } : {}), organization_id: ref.organizationId },
            key: {
              id: auth.keyId,
              scoped_to: auth.projectId ? 'project' : 'organization',
              scopes: auth.scopes,
              writes: auth.writes,
            },
          },
        };
      },
    }),
  ]);
}
