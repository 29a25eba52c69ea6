// `npm run fuzz`: schemathesis against /v1/openapi.json of the real service (real Neo4j and
// Temporal on fuzz ports, a fresh development key), with every check, for a bounded time. Fails on
// any failure not accepted in fuzz/baseline.json (each entry with its reason), and on any response
// the in-process audit finds outside the published schemas.
// Env: GKS_FUZZ_SECONDS (default 180), GKS_FUZZ_NEO4J_PORT (17697), GKS_FUZZ_TEMPORAL_PORT (17243),
// GKS_FUZZ_API_PORT (18080), GKS_FUZZ_SEED, GKS_FUZZ_WORKERS (2), GKS_FUZZ_VENV (.cache/schemathesis).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config/config.js';
import { ensureServices } from '../src/runtime/services.js';
import { startService } from '../src/server.js';
import { ensureDevCredentials } from '../src/runtime/devCredentials.js';
import { startResponseAudit } from '../src/http/responseAudit.js';
import { compareWithBaseline, readFailures, type Baseline } from './fuzzReport.js';

const SCHEMATHESIS = 'schemathesis==4.32.5';
const say = (line: string) => process.stdout.write(`[fuzz] ${line}\n`);
const env = process.env;
const seconds = Number(env.GKS_FUZZ_SECONDS ?? 180);
const root = process.cwd();
const venv = path.resolve(root, env.GKS_FUZZ_VENV ?? '.cache/schemathesis');
const reportDir = path.resolve(root, '.cache/fuzz-report');
// The judged summary (no accepted lines) is also kept in verdict.txt: .ci/run prints it again after the
// suite, so the end of a failed CI log names what the gate found.
const verdict: string[] = [];
const judge = (line: string) => {
  verdict.push(line);
  say(line);
};

function ensureSchemathesis(): string {
  const st = path.join(venv, 'bin', 'st');
  const stamp = path.join(venv, 'installed.txt');
  if (fs.existsSync(st) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === SCHEMATHESIS) return st;
  say(`installing ${SCHEMATHESIS} into ${path.relative(root, venv)}`);
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(cmd, args, { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
  };
  run('python3', ['-m', 'venv', venv]);
  run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', SCHEMATHESIS]);
  fs.writeFileSync(stamp, SCHEMATHESIS);
  return st;
}

async function main(): Promise<number> {
  const st = ensureSchemathesis();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    // Connections need a secrets key (without one, create is a documented 503): a fresh one per run.
    GKS_SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    // schemathesis sends thousands of requests without a key on purpose (its ignored_auth check).
    RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '60000000',
    RATE_LIMIT_AUTH_FAILURES_BURST: '1000000',
    // The fuzzed graph stays small: a fixed, small engine beside the suite.
    GKS_NEO4J_HEAP_MB: '1024',
    GKS_NEO4J_PAGECACHE_MB: '512',
    ...env,
  });
  const neo4jPort = Number(env.GKS_FUZZ_NEO4J_PORT ?? 17697);
  const temporalPort = Number(env.GKS_FUZZ_TEMPORAL_PORT ?? 17243);
  const apiPort = Number(env.GKS_FUZZ_API_PORT ?? 18080);
  const dataDir = path.join(config.dataDir, `fuzz-${neo4jPort}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  // The embedding engine's port derives from the Neo4j port (as in the tests), so runs never collide.
  const layout = { dataDir, neo4jPort, temporalPort, temporalUiPort: null, embeddingsPort: neo4jPort + 5 };
  const endpoints = await ensureServices(config, layout, (l) => say(l.trim()));
  const audit = startResponseAudit();
  fs.rmSync(reportDir, { recursive: true, force: true });
  fs.mkdirSync(reportDir, { recursive: true });
  // The service's errors (a 500's stack, under its request id) are kept beside the report: a failure the
  // fuzzer finds can then be read, not only replayed.
  const errorLogPath = path.join(reportDir, 'service-errors.log');
  const service = await startService(config, endpoints, {
    worker: true,
    port: apiPort,
    logger: pino({ level: 'error' }, pino.destination({ dest: errorLogPath, sync: true })),
  });
  try {
    const { credentials } = await ensureDevCredentials(service.deps.graph, dataDir);
    const args = [
      '--config-file',
      path.join(root, 'fuzz', 'schemathesis.toml'),
      'run',
      `${service.url}/v1/openapi.json`,
      '--url',
      service.url,
      '--checks',
      'all',
      '--max-time',
      String(seconds),
      '--workers',
      env.GKS_FUZZ_WORKERS ?? '2',
      '-H',
      `Authorization: Bearer ${credentials.key}`,
      '--report',
      'ndjson',
      '--report-dir',
      reportDir,
      '--request-timeout',
      '30',
      '--continue-on-failure',
      '--output-truncate',
      'true',
      '--max-response-time',
      env.GKS_FUZZ_MAX_RESPONSE_SECONDS ?? '60',
      ...(env.GKS_FUZZ_SEED ? ['--seed', env.GKS_FUZZ_SEED] : []),
    ];
    say(`st ${args.join(' ').replace(credentials.key, 'gks_…')}`);
    const began = Date.now();
    // Schemathesis's own console report lists every failure, the baselined ones included; it goes to
    // a log file and is printed only when the run finds something the baseline does not accept.
    const logPath = path.join(reportDir, 'schemathesis.log');
    const log = fs.openSync(logPath, 'w');
    say(`schemathesis's console report: ${path.relative(root, logPath)}`);
    const code = await new Promise<number>((resolve) => {
      // cwd .cache: schemathesis keeps its own cache (.schemathesis/) in the working directory.
      const child = spawn(st, args, {
        stdio: ['ignore', log, log],
        cwd: path.join(root, '.cache'),
        env: { ...env, GKS_FUZZ_PROJECT_ID: credentials.project_id },
      });
      child.on('exit', (c) => resolve(c ?? 1));
    });
    fs.closeSync(log);
    const duration = (Date.now() - began) / 1000;
    const baseline = JSON.parse(fs.readFileSync(path.join(root, 'fuzz', 'baseline.json'), 'utf8')) as Baseline;
    const run = readFailures(reportDir);
    const outcome = compareWithBaseline(run.failures, baseline);
    if (outcome.unexpected.length > 0 || code === 2 || run.requests === 0) {
      say(`schemathesis's console report follows (${path.relative(root, logPath)})`);
      process.stdout.write(fs.readFileSync(logPath, 'utf8'));
    }
    judge(
      `schemathesis exit ${code}; ${run.requests} requests in ${duration.toFixed(0)} s over ${run.operations} operations`,
    );
    judge(`responses by status: ${JSON.stringify(run.byStatus)}`);
    // Exit 2 is schemathesis's own internal error (e.g. its URL scan of response bodies raising on a
    // stored string such as "http://[x"): the report still holds every case it ran, judged below.
    if (code === 2)
      judge(
        `schemathesis stopped on an internal error of its own after ${duration.toFixed(0)} s (its report is above)`,
      );
    judge(
      `distinct failures by check: ${JSON.stringify(run.byCheck)} (${outcome.unexpected.length} not in the baseline)`,
    );
    for (const line of outcome.accepted) say(`accepted (baseline): ${line}`);
    for (const line of outcome.unexpected) judge(`NEW FAILURE: ${line}`);
    if (outcome.unexpected.length > 0) {
      judge(`the service's errors, by request id: ${path.relative(root, errorLogPath)}`);
      const errors = fs.readFileSync(errorLogPath, 'utf8').trim().split('\n').filter(Boolean);
      for (const line of errors.slice(0, 20)) verdict.push(`  ${line.slice(0, 2000)}`);
    }
    judge(audit.summary());
    if (run.requests === 0) judge('no requests were sent');
    fs.writeFileSync(path.join(reportDir, 'verdict.txt'), verdict.map((l) => `[fuzz] ${l}\n`).join(''));
    return outcome.unexpected.length === 0 && audit.violations.length === 0 && run.requests > 0 ? 0 : 1;
  } finally {
    await service.close();
    await endpoints.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fuzz failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
