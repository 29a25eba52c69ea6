// `npm start`: provisions and starts Neo4j and Temporal unless external ones are configured, applies
// the schema, starts the API and the Temporal worker, prints where everything is, and shuts down
// cleanly on SIGINT/SIGTERM.
import path from 'node:path';
import { ConfigError, loadConfig } from './config/config.js';
import { PrerequisiteError } from './runtime/provision.js';
import { embeddingsBanner } from './embeddings/setup.js';
import { ensureServices, type Endpoints } from './runtime/services.js';
import { devCredentialLines, ensureDevCredentials } from './runtime/devCredentials.js';
import { neo4jPasswordFile } from './runtime/neo4jPassword.js';
import { startBrowser, type BrowserServer } from './runtime/browser.js';
import { ensureDevSecretsKey } from './runtime/devSecretsKey.js';
import { startService, type Service } from './server.js';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const began = Date.now();
  // A development secrets key in the data folder unless one is configured (connections need it).
  const devKey = ensureDevSecretsKey(process.env, loadConfig().dataDir);
  const config = loadConfig();
  let endpoints: Endpoints | undefined;
  let service: Service | undefined;
  let browser: BrowserServer | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The engines share our terminal, so Ctrl+C reaches them too: they must not be restarted now.
    for (const supervisor of endpoints?.supervisors ?? []) supervisor.halt();
    say(`\n${signal} received: draining requests, stopping the worker and services…`);
    await browser?.close();
    await service?.close().catch((e: unknown) => say(`  error while closing the service: ${String(e)}`));
    await endpoints?.stop().catch((e: unknown) => say(`  error while stopping services: ${String(e)}`));
    say('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  endpoints = await ensureServices(
    config,
    {
      dataDir: config.dataDir,
      neo4jPort: config.neo4j.boltPort,
      temporalPort: config.temporal.port,
      temporalUiPort: config.temporal.uiPort,
    },
    say,
  );
  say('Starting the API and the Temporal worker…');
  service = await startService(config, endpoints, { worker: true });
  browser = await startBrowser(config, endpoints.neo4jUri, say);
  const { credentials, created } = await ensureDevCredentials(service.deps.graph, config.dataDir);
  say('');
  say(`Governed knowledge graph service is up in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  say(`  API:          ${service.url}/v1   (OpenAPI: ${service.url}/v1/openapi.json)`);
  say(`  Console:      ${service.url}/console   (review staged deltas; sign in with an API key)`);
  say(
    `  Temporal UI:  ${endpoints.temporalUiUrl ?? '(external Temporal: use its own UI)'}` +
      `   address ${endpoints.temporalAddress}`,
  );
  say(`  Neo4j Bolt:   ${endpoints.neo4jUri}   (terminal: npx gks cypher)`);
  say(`  Neo4j Browser: ${browser?.openUrl ?? '(off: GKS_BROWSER_PORT=0 or not provisioned, see above)'}`);
  if (endpoints.neo4jAuth)
    say(
      `  Neo4j login:  user ${endpoints.neo4jAuth.user}, password in ` +
        `${path.relative(process.cwd(), neo4jPasswordFile(config.dataDir))} (generated; gks cypher reads it)`,
    );
  say(`  Embeddings:   ${embeddingsBanner(config.embeddings, endpoints.embeddingsUrl)}`);
  for (const line of devCredentialLines(
    credentials,
    created,
    path.relative(process.cwd(), path.join(config.dataDir, 'dev-credentials.json')),
  ))
    say(line);
  say(
    `  Ops:          ${service.url}/readyz   ${config.metrics.enabled ? `${service.url}/metrics   ` : ''}` +
      `${service.url}/v1/status (admin key)`,
  );
  if (endpoints.supervisors.length)
    say(`  Supervised:   ${endpoints.supervisors.map((s) => s.name).join(', ')} (restarted with backoff if they die)`);
  if (devKey) {
    const where = `${path.relative(process.cwd(), devKey.file)}${devKey.created ? ' (new)' : ''}`;
    say(`  Secrets key:  development key in ${where}; set GKS_SECRETS_KEY in production`);
  }
  say('Press Ctrl+C to stop.');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof PrerequisiteError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
