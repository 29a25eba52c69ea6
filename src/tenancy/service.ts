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
