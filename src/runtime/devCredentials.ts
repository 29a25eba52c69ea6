// On first run, creates a development organization, project and API key and keeps them in an
// ignored file (.data/dev-credentials.json, mode 600) so restarts reuse them. The key's secret is
// printed only when it was just created; later starts say where it is kept.
import fs from 'node:fs';
import path from 'node:path';
import type { Graph } from '../db/graph.js';
import { issueKey, verifyKey } from '../auth/keys.js';
import { createOrganization, createProject } from '../tenancy/service.js';
import { grantCredits } from '../credits/service.js';

export interface DevCredentials {
  organization_id: string;
  project_id: string;
  key_id: string;
  key: string;
}

export async function ensureDevCredentials(
  graph: Graph,
  dataDir: string,
): Promise<{ credentials: DevCredentials; created: boolean }> {
  const file = path.join(dataDir, 'dev-credentials.json');
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as DevCredentials;
    const check = await verifyKey(graph, saved.key);
    if (check.ok) return { credentials: saved, created: false };
  }
  const org = await createOrganization(graph, 'Development');
  const project = await createProject(graph, org.id, 'Development project');
  const key = await issueKey(graph, {
    organizationId: org.id,
    projectId: project.id,
    name: 'development key',
  });
  await grantCredits(graph, org.id, 1000, 'development grant');
  const credentials: DevCredentials = {
    organization_id: org.id,
    project_id: project.id,
    key_id: key.id,
    key: key.key,
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return { credentials, created: true };
}

/** The start banner's credential lines: the key itself only when it was just created. */
export function devCredentialLines(credentials: DevCredentials, created: boolean, file: string): string[] {
  return [
    created
      ? `  Dev API key:  ${credentials.key}   (new; saved in ${file})`
      : `  Dev API key:  ${credentials.key.slice(0, credentials.key.lastIndexOf('_') + 1)}…   (key ` +
        `${credentials.key_id}; the full key is in ${file})`,
    `  Project:      ${credentials.project_id}`,
  ];
}
