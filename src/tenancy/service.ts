// Organizations and projects: created by the gks CLI and the first-run bootstrap; tenancy lives in
// the data since Community Neo4j has one user database.
import crypto from 'node:crypto';
import type { Graph } from '../db/graph.js';
import type { Row } from '../db/graph.js';

export async function createOrganization(graph: Graph, name: string): Promise<Row> {
  const row = await graph.write((tx) => tx.one('tenancy/create_organization', { id: crypto.randomUUID(), name }));
  if (!row) throw new Error('organization was not created');
  return row;
}

export async function createProject(graph: Graph, organizationId: string, name: string): Promise<Row> {
  const row = await graph.write((tx) =>
    tx.one('tenancy/create_project', { id: crypto.randomUUID(), organization_id: organizationId, name }),
  );
  if (!row) throw new Error(`organization ${organizationId} does not exist`);
  return row;
}

/** Every organization with its project ids. */
export async function listOrganizations(graph: Graph): Promise<Row[]> {
  return graph.read((tx) => tx.run('tenancy/list_organizations'));
}

/** The organization a project belongs to, or null when there is no such project. */
export async function projectOrganization(graph: Graph, projectId: string): Promise<string | null> {
  const row = await graph.read((tx) => tx.one('tenancy/project_organization', { project_id: projectId }));
  return row ? String(row.organization_id) : null;
}

/** A project's name (null when there is no such project). */
export async function projectName(graph: Graph, projectId: string): Promise<string | null> {
  const row = await graph.read((tx) => tx.one('tenancy/find_project', { id: projectId }));
  return typeof row?.name === 'string' ? row.name : null;
}
