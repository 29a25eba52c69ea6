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
  // A project never changes organization (no route moves one), so what a read said holds: another organization's
  // project is refused at once, and one of the key's own is confirmed by the request's standing check (read with
  // its first transaction) instead of a transaction of its own. A project deleted since is refused then.
  const known = projectOrganizations.get(asked);
  if (known !== undefined && known !== auth.organizationId) throw projectNotFound(asked);
  const confirmedLater =
    known !== undefined &&
    graph.extendStanding({ project_id: asked }, (row) =>
      row?.asked_organization_id === auth.organizationId ? null : projectNotFound(asked),
    );
  if (!confirmedLater) {
    const row = await graph.read((tx) => tx.one('tenancy/find_project', { id: asked }));
    if (!row || row.organization_id !== auth.organizationId) throw projectNotFound(asked);
    rememberProject(asked, auth.organizationId);
  }
  return { projectId: asked, organizationId: auth.organizationId };
}

/** Same answer for unknown and foreign projects, so keys cannot probe other organizations. */
function projectNotFound(id: string): ApiError {
  return new ApiError('not_found', `project ${id} was not found`, { resource: 'project', id });
}

/** The organization of each project an organization key was last seen asking for, oldest first, bounded. */
const projectOrganizations = new Map<string, string>();
const REMEMBERED_PROJECTS = 10_000;

function rememberProject(projectId: string, organizationId: string): void {
  projectOrganizations.delete(projectId);
  projectOrganizations.set(projectId, organizationId);
  if (projectOrganizations.size > REMEMBERED_PROJECTS)
    projectOrganizations.delete(projectOrganizations.keys().next().value as string);
}
