// gks: administration from the command line with the service's own configuration (NEO4J_URI etc.,
// default the local Neo4j of `npm start`). `--json` prints one JSON object per command.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { gatewayFromConfig, graphFromConfig, temporalAddress } from '../runtime/clients.js';
import { neo4jLogin } from '../runtime/neo4jPassword.js';
import { applySchema } from '../db/schema.js';
import { issueKey, listKeys, revokeKey } from '../auth/keys.js';
import { isScope, SCOPES, type Scope } from '../auth/scopes.js';
import { createOrganization, createProject, listOrganizations, projectOrganization } from '../tenancy/service.js';
import { grantCredits } from '../credits/service.js';
import { runCypher } from './cypher.js';
import { runMcpStdio } from './mcp.js';
import { runReembed } from './reembed.js';

const USAGE = `usage: gks <command> [--json]
  org create NAME
  org list
  project create --org ORG_ID NAME
  key create (--project PROJECT_ID | --org ORG_ID) [--scope SCOPE]... [--name NAME] [--writes apply|stage]
                    (--writes stage: every write of the key stages for review; docs/mcp.md)
  key list [--org ORG_ID]
  key revoke KEY_ID
  credits grant --org ORG_ID AMOUNT [--reason TEXT]
  mcp               MCP server on stdio relaying to GKS_URL/mcp with GKS_API_KEY (docs/mcp.md)
  doctor            run the serviceCheck workflow through Temporal and the worker
  reembed [--detach]  re-embed every memory, chunk and entity with the configured model (a Temporal
                    workflow; follows a running one; docs/embeddings.md)
  cypher [-e QUERY | -f FILE] [--param NAME=VALUE]...   Cypher shell on the graph (gks cypher --help)
scopes: ${SCOPES.join(', ')}
  (without --scope a key gets every scope but admin; pass --scope admin explicitly)`;

class UsageError extends Error {}

function print(json: boolean, value: Record<string, unknown>, human: string): void {
  process.stdout.write(`${json ? JSON.stringify(value) : human}\n`);
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'mcp') return runMcpStdio();
  if (argv[0] === 'cypher') {
    const config = loadConfig();
    return runCypher(argv.slice(1), { ...neo4jLogin(config), database: config.neo4j.database });
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      org: { type: 'string' },
      project: { type: 'string' },
      scope: { type: 'string', multiple: true },
      name: { type: 'string' },
      writes: { type: 'string' },
      reason: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      detach: { type: 'boolean', default: false },
    },
  });
  const [area, verb, ...rest] = positionals;
  if (values.help || !area) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  const { graph, uri, user } = graphFromConfig(config);
  const json = values.json ?? false;
  try {
    if (!(await graph.ping())) {
      throw new Error(
        `Neo4j is not reachable at ${uri}, or refused the login of ${user}. Start the service with \`npm start\`, ` +
          'or set NEO4J_URI (with NEO4J_USER and NEO4J_PASSWORD).',
      );
    }
    await applySchema(graph);
    const command = `${area} ${verb ?? ''}`.trim();
    switch (command) {
      case 'org create': {
        const name = rest.join(' ');
        if (!name) throw new UsageError('org create needs a NAME');
        const org = await createOrganization(graph, name);
        print(json, { id: org.id, name: org.name }, `organization ${org.id} (${name})`);
        break;
      }
      case 'org list': {
        const rows = await listOrganizations(graph);
        print(
          json,
          { organizations: rows },
          rows.map((r) => `${r.id}  ${r.name}  projects: ${r.project_ids.join(', ')}`).join('\n') || '(none)',
        );
        break;
      }
      case 'project create': {
        const name = rest.join(' ');
        if (!values.org || !name) throw new UsageError('project create needs --org ORG_ID and a NAME');
        const project = await createProject(graph, values.org, name);
        print(
          json,
          { id: project.id, name: project.name, organization_id: project.organization_id },
          `project ${project.id} (${name}) in organization ${values.org}`,
        );
        break;
      }
      case 'key create': {
        if (!!values.org === !!values.project)
          throw new UsageError('key create needs exactly one of --project PROJECT_ID or --org ORG_ID');
        const scopes = (values.scope ?? []).map((s) => {
          if (!isScope(s)) throw new UsageError(`unknown scope ${s}; scopes: ${SCOPES.join(', ')}`);
          return s as Scope;
        });
        if (values.writes !== undefined && values.writes !== 'apply' && values.writes !== 'stage')
          throw new UsageError('--writes takes apply or stage');
        let organizationId = values.org;
        if (values.project) {
          const owner = await projectOrganization(graph, values.project);
          if (!owner) throw new Error(`project ${values.project} does not exist`);
          organizationId = owner;
        }
        const key = await issueKey(graph, {
          organizationId: organizationId as string,
          projectId: values.project ?? null,
          scopes,
          ...(values.name ? { name: values.name } : {}),
          ...(values.writes === 'stage' ? { writes: 'stage' as const } : {}),
        });
        print(
          json,
          { id: key.id, key: key.key, scopes: key.scopes, writes: key.writes },
          `key ${key.id}\n  ${key.key}\n  scopes: ${key.scopes.join(' ')}\n  writes: ${key.writes}\n` +
            'The secret is shown only once; store it now.',
        );
        break;
      }
      case 'key list': {
        const rows = await listKeys(graph, values.org ?? null);
        print(
          json,
          { keys: rows },
          rows
            .map(
              (r) =>
                `${r.id}  ${r.key_hint}  ` +
                `${r.project_id ? 'project ' + r.project_id : 'org ' + r.organization_id}  ` +
                `${r.revoked_at ? 'REVOKED' : 'active'}  ${r.name ?? ''}`,
            )
            .join('\n') || '(none)',
        );
        break;
      }
      case 'key revoke': {
        const id = rest[0];
        if (!id) throw new UsageError('key revoke needs a KEY_ID');
        const row = await revokeKey(graph, id);
        if (!row) throw new Error(`key ${id} does not exist`);
        print(json, { id, revoked_at: row.revoked_at }, `key ${id} revoked at ${row.revoked_at}`);
        break;
      }
      case 'credits grant': {
        const amount = Number(rest[0]);
        if (!values.org || !Number.isInteger(amount) || amount <= 0)
          throw new UsageError('credits grant needs --org ORG_ID and a positive whole AMOUNT');
        const result = await grantCredits(graph, values.org, amount, values.reason ?? 'granted with gks');
        print(
          json,
          { id: result.entry_id, organization_id: values.org, balance: result.balance },
          `granted ${amount} credits; balance ${result.balance}`,
        );
        break;
      }
      case 'doctor': {
        const address = temporalAddress(config);
        const gateway = gatewayFromConfig(config);
        try {
          const client = await gateway.getClient();
          const result = await client.workflow.execute('serviceCheck', {
            taskQueue: config.temporal.taskQueue,
            workflowId: `service-check-${Date.now()}`,
            args: ['gks doctor'],
            workflowExecutionTimeout: '30 seconds',
          });
          print(
            json,
            { neo4j: uri, temporal: address, result },
            `Neo4j ${uri}: ok\nTemporal ${address} and a worker: ok\nworkflow result: ${JSON.stringify(result)}`,
          );
        } finally {
          await gateway.close();
        }
        break;
      }
      case 'reembed': {
        const done = await runReembed(config, graph, (line) => (json ? undefined : print(false, {}, line)), {
          detach: values.detach ?? false,
        });
        if (json) print(true, { model: config.embeddings.model, result: done }, '');
        break;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await graph.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`gks: ${error.message}\n${USAGE}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`gks: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
