// Resolves the project a request acts on (spec section 5): a project-scoped key makes project_id
// implicit and refuses another one; an organization-scoped key requires project_id (body, or query
// string on GET) naming a project of that organization.
import type { Graph } from '../db/graph.js';
import { ApiError, invalid } from '../errors/catalogue.js';
import type { AuthContext } from './keys.js';

export interface ProjectRef {
  projectId: string;
  organizationId: string;
}

export async function resolveProject(
  graph: Graph,
  auth: AuthContext,
  requested: unknown,
  where: 'body' | 'query',
): Promise<ProjectRef> {
  const field = `/${where}/project_id`;
  if (requested !== undefined && requested !== null && typeof requested !== 'string') {
    throw invalid(field, 'must be a string');
  }
  const asked = typeof requested === 'string' && requested !== '' ? requested : undefined;
  if (auth.projectId !== null) {
    if (asked !== undefined && asked !== auth.projectId) {
      throw new ApiError(
        'forbidden',
        `This key is scoped to project ${auth.projectId} and cannot act on project ${asked}.`,
        {
          fields: [{ field, reason: 'differs from the project of the key' }],
        },
      );
    }
    return { projectId: auth.projectId, organizationId: auth.organizationId };
  }
  if (asked === undefined) {
    throw new ApiError('invalid_request', 'project_id is required with an organization-scoped key.', {
      fields: [{ field, reason: 'required for organization-scoped keys' }],
    });
  }
  const row = await graph.read((tx) => tx.one('tenancy/find_project', { id: asked }));
  if (!row || row.organization_id !== auth.organizationId) {
    // Same answer for unknown and foreign projects, so keys cannot probe other organizations.
    throw new ApiError('not_found', `project ${asked} was not found`, { resource: 'project', id: asked });
  }
  return { projectId: asked, organizationId: auth.organizationId };
}
