// Organizations and projects: created by the gks CLI and the first-run bootstrap; tenancy lives in
// the data since Community Neo4j has one user database.
import crypto from 'node:crypto';
import type { Graph } from '../db/graph.js';

/** An organization as tenancy/create_organization returns it (declared, not checked). */
export interface OrganizationRow {
  id: string;
  name: string;
  created_at: string;
}

/** A project as tenancy/create_project returns it (declared, not checked). */
export interface ProjectRow {
  id: string;
  name: string;
  organization_id: string;
  created_at: string;
}

export async function createOrganization(graph: Graph, name: string): Promise<OrganizationRow> {
  const row = await graph.write((tx) =>
    tx.one<OrganizationRow>('tenancy/create_organization', { id: crypto.randomUUID(), name }),
  );
  if (!row) throw new Error('organization was not created');
  return row;
}

export async function createProject(graph: Graph, organizationId: string, name: string): Promise<ProjectRow> {
  const row = await graph.write((tx) =>
    tx.one<ProjectRow>('tenancy/create_project', { id: crypto.randomUUID(), organization_id: organizationId, name }),
  );
  if (!row) throw new Error(`organization ${organizationId} does not exist`);
  return row;
}

/** Every organization with its project ids. */
export async function listOrganizations(graph: Graph): Promise<(OrganizationRow & { project_ids: string[] })[]> {
  return graph.read((tx) => tx.run<OrganizationRow & { project_ids: string[] }>('tenancy/list_organizations'));
}

/** The organization a project belongs to, or null when there is no such project. */
export async function projectOrganization(graph: Graph, projectId: string): Promise<string | null> {
  const row = await graph.read((tx) =>
    tx.one<{ organization_id: string }>('tenancy/project_organization', { project_id: projectId }),
  );
  return row ? row.organization_id : null;
}

/** A project's name (null when there is no such project). */
export async function projectName(graph: Graph, projectId: string): Promise<string | null> {
  const row = await graph.read((tx) => tx.one('tenancy/find_project', { id: projectId }));
  return typeof row?.name === 'string' ? row.name : null;
}
