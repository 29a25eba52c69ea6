// First-use provisioning of the local Neo4j engine (Maven Central jars) and the temporal CLI dev
// server (built with go install), cached under .cache/ so later starts skip it. Progress is printed;
// a missing prerequisite stops at once with what to install.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

export type Progress = (line: string) => void;

export class PrerequisiteError extends Error {}

function requireTool(tool: string, versionArgs: string[], install: string): void {
  const probe = spawnSync(tool, versionArgs, { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new PrerequisiteError(`${tool} is required but was not found on PATH. Install it: ${install}`);
  }
}

function javaMajor(): number {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const text = `${probe.stderr ?? ''}${probe.stdout ?? ''}`;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(text);
  if (!m) return 0;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

async function runStep(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; log: string }, progress: Progress, label: string): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(path.dirname(opts.log), { recursive: true });
  const out = fs.openSync(opts.log, 'w');
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', out, out] });
  const ticker = setInterval(() => progress(`  … ${label}: ${Math.round((Date.now() - started) / 1000)} s (log: ${path.relative(REPO_ROOT, opts.log)})`), 15_000);
  try {
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (c) => resolve(c ?? 1));
    });
    if (code !== 0) {
      const tail = fs.readFileSync(opts.log, 'utf8').split('\n').slice(-15).join('\n');
      throw new Error(`${label} failed (exit ${code}). Last lines of ${opts.log}:\n${tail}`);
    }
  } finally {
    clearInterval(ticker);
    fs.closeSync(out);
  }
  progress(`  ✓ ${label} in ${Math.round((Date.now() - started) / 1000)} s`);
}

export interface Neo4jInstall {
  libDir: string;
  classesDir: string;
}

/** Resolves the Neo4j jars with Maven and compiles the launcher, once per pom/launcher version. */
export async function provisionNeo4j(cacheDir: string, progress: Progress): Promise<Neo4jInstall> {
  const srcDir = path.join(REPO_ROOT, 'scripts/neo4j');
  const pom = path.join(srcDir, 'pom.xml');
  const launcher = path.join(srcDir, 'Launcher.java');
  const stamp = crypto.createHash('sha256').update(fs.readFileSync(pom)).update(fs.readFileSync(launcher)).digest('hex').slice(0, 16);
  const home = path.join(cacheDir, 'neo4j');
  const libDir = path.join(home, 'lib');
  const classesDir = path.join(home, 'classes');
  const marker = path.join(home, `ready-${stamp}`);
  if (fs.existsSync(marker)) return { libDir, classesDir };

  requireTool('java', ['-version'], 'a Java 17 JDK, e.g. `apt-get install openjdk-17-jdk-headless`');
  const major = javaMajor();
  if (major < 17) throw new PrerequisiteError(`Java 17 or newer is required for Neo4j 5.26; found Java ${major}.`);
  requireTool('javac', ['-version'], 'a Java 17 JDK (not only a JRE), e.g. `apt-get install openjdk-17-jdk-headless`');
  requireTool('mvn', ['-v'], 'Apache Maven, e.g. `apt-get install maven`');
  progress('Provisioning Neo4j 5.26 Community from Maven Central (first run only)…');
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  await runStep('mvn', ['-B', '-q', '-f', pom, 'dependency:copy-dependencies', `-DoutputDirectory=${libDir}`], { log: path.join(home, 'mvn.log') }, progress, 'resolve Neo4j jars (mvn)');
  await runStep('javac', ['-cp', path.join(libDir, '*'), '-d', classesDir, launcher], { log: path.join(home, 'javac.log') }, progress, 'compile the Neo4j launcher');
  fs.writeFileSync(marker, new Date().toISOString());
  return { libDir, classesDir };
}

/** Builds the temporal CLI (real server + Web UI) with go install, once. */
export async function provisionTemporal(cacheDir: string, progress: Progress): Promise<string> {
  const binDir = path.join(cacheDir, 'bin');
  const binary = path.join(binDir, 'temporal');
  const marker = path.join(binDir, `temporal-${TEMPORAL_CLI_VERSION}.ok`);
  if (fs.existsSync(binary) && fs.existsSync(marker)) return binary;
  requireTool('go', ['version'], 'Go 1.25 or newer (https://go.dev/doc/install or `apt-get install golang`)');
  progress(`Provisioning the Temporal dev server: go install temporal CLI ${TEMPORAL_CLI_VERSION} (first run only, several minutes on 2 cores)…`);
  fs.mkdirSync(binDir, { recursive: true });
  await runStep(
    'go',
    ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`],
    { env: { ...process.env, GOBIN: binDir, GOFLAGS: '-mod=mod' }, log: path.join(binDir, 'go-install.log') },
    progress,
    'build temporal CLI (go install)',
  );
  fs.writeFileSync(marker, new Date().toISOString());
  return binary;
}
