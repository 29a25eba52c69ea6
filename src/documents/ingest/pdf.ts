// Extracts the text of an uploaded or fetched PDF in a worker thread with a time limit, so a large
// or hostile PDF never blocks the API's event loop. One worker reads PDFs one at a time; a PDF that
// takes longer than the limit is refused and its worker terminated (the next PDF starts a new one).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ApiError, invalid } from '../../errors/catalogue.js';
import type { PdfJob, PdfWorkerReply } from './pdfWorker.js';

export interface PdfText {
  text: string;
  pages: number;
  title: string | null;
}

/** How long reading one PDF may take (from when the worker starts on it) before it is refused. */
export const PDF_TIME_LIMIT_MS = 30_000;
/** How long a new worker may take to load pdf.js before reading is given up as unavailable. */
const WORKER_START_LIMIT_MS = 120_000;

// Run from source the worker is the .ts file beside this one, loaded through tsx like the service
// (worker threads do not inherit its loader hooks); a compiled build has .js and needs none.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './pdfWorker.ts' : './pdfWorker.js', import.meta.url);

/**
 * The ESM entry of tsx's register API, by its package's own exports map (import.meta.resolve is not
 * available where tsx compiles this file, and require.resolve would pick its CommonJS entry).
 */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(manifest), exports['./esm/api']!.import.default)).href;
}

function spawn(): Worker {
  if (!FROM_SOURCE) return new Worker(WORKER_URL);
  const bootstrap = `import(${JSON.stringify(tsxEsmApi())})
    .then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(bootstrap, { eval: true });
}

/** Waits for the worker's next message matching accept, or rejects on error, exit or timeout. */
function next<T extends PdfWorkerReply>(
  worker: Worker,
  accept: (m: PdfWorkerReply) => m is T,
  ms: number,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    };
    const onMessage = (m: PdfWorkerReply): void => {
      if (accept(m)) {
        done();
        resolve(m);
      }
    };
    const onError = (e: Error): void => {
      done();
      reject(e);
    };
    const onExit = (code: number): void => {
      done();
      reject(new Error(`the PDF worker exited (code ${code})`));
    };
    const timer = setTimeout(() => {
      done();
      reject(onTimeout());
    }, ms);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

class PdfTimeLimit extends Error {}

let current: Promise<Worker> | undefined;
let queue: Promise<unknown> = Promise.resolve();
let jobs = 0;

function readyWorker(): Promise<Worker> {
  current ??= (async () => {
    const worker = spawn();
    worker.unref();
    await next(
      worker,
      (m): m is { ready: true } => 'ready' in m,
      WORKER_START_LIMIT_MS,
      () => new Error('the PDF worker did not start in time'),
    );
    return worker;
  })().catch((error: unknown) => {
    current = undefined;
    throw error;
  });
  return current;
}

async function readInWorker(buf: Buffer, field: string, limit: number): Promise<PdfText> {
  const worker = await readyWorker();
  const id = (jobs += 1);
  const data = new Uint8Array(buf); // a copy, handed over to the worker
  worker.postMessage({ id, data, field } satisfies PdfJob, [data.buffer as ArrayBuffer]);
  try {
    const reply = await next(
      worker,
      (m): m is Extract<PdfWorkerReply, { id: number }> => 'id' in m && m.id === id,
      limit,
      () => new PdfTimeLimit(),
    );
    if (!reply.ok) {
      if (reply.reason === null) throw new ApiError('internal_error', 'The PDF reader failed unexpectedly.');
      throw invalid(field, reply.reason, reply.reason);
    }
    return { text: reply.text, pages: reply.pages, title: reply.title };
  } catch (error) {
    // A worker past its limit (or broken) is stopped; the next PDF gets a fresh one.
    if (error instanceof PdfTimeLimit || !(error instanceof ApiError)) {
      current = undefined;
      await worker.terminate();
    }
    if (error instanceof PdfTimeLimit) throw invalid(field, `the PDF took longer than ${limit / 1000} s to read`);
    throw error;
  }
}

/** Reads every page's text, pages apart by a blank line; the field names the input in errors. */
export function pdfToText(buf: Buffer, field = '/body/file', options: { timeLimitMs?: number } = {}): Promise<PdfText> {
  const run = queue.then(() => readInWorker(buf, field, options.timeLimitMs ?? PDF_TIME_LIMIT_MS));
  queue = run.catch(() => undefined);
  return run;
}
