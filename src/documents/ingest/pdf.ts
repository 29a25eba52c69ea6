// Extracts the text of an uploaded or fetched PDF in worker threads, never on the API's event loop.
// A small pool of workers (PDF_WORKERS) reads PDFs; waiting PDFs are served project by project in
// turn, so one tenant's queue of slow or hostile PDFs delays only itself. Each worker has a memory
// ceiling (resourceLimits: a PDF that needs more is refused, not the process killed), each PDF a time
// limit, and a PDF with more pages than PDF_MAX_PAGES is refused before its pages are read.
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

/** What the pool allows (config `pdf`, docs/configuration.md). */
export interface PdfLimits {
  /** Worker threads reading PDFs at once. */
  workers: number;
  /** Pages a PDF may have; more is refused before any page is read. */
  maxPages: number;
  /** Old-generation heap of one worker, in MiB; a PDF that needs more is refused. */
  memoryMb: number;
  /** How long reading one PDF may take (from when a worker starts on it). */
  timeLimitMs: number;
}

export const DEFAULT_PDF_LIMITS: PdfLimits = { workers: 2, maxPages: 2_000, memoryMb: 512, timeLimitMs: 30_000 };
/** Kept for callers that name the default time limit. */
export const PDF_TIME_LIMIT_MS = DEFAULT_PDF_LIMITS.timeLimitMs;
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

function spawn(memoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, memoryMb) };
  if (!FROM_SOURCE) return new Worker(WORKER_URL, { resourceLimits });
  const bootstrap = `import(${JSON.stringify(tsxEsmApi())})
    .then(({ register }) => { register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

class PdfTimeLimit extends Error {}

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

interface Job {
  buf: Buffer;
  field: string;
  timeLimitMs: number;
  resolve: (text: PdfText) => void;
  reject: (error: unknown) => void;
}

const isOutOfMemory = (error: unknown): boolean =>
  (error as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

/** A pool of PDF-reading workers with one waiting line per tenant, served in turn. */
export class PdfReader {
  private readonly idle: Worker[] = [];
  private starting = 0;
  private busy = 0;
  private jobs = 0;
  /** Waiting jobs per tenant, and the order tenants are served in (round robin). */
  private readonly waiting = new Map<string, Job[]>();
  private readonly turns: string[] = [];

  constructor(readonly limits: PdfLimits) {}

  read(buf: Buffer, field: string, tenant: string, timeLimitMs = this.limits.timeLimitMs): Promise<PdfText> {
    return new Promise<PdfText>((resolve, reject) => {
      const line = this.waiting.get(tenant);
      const job = { buf, field, timeLimitMs, resolve, reject };
      if (line) line.push(job);
      else {
        this.waiting.set(tenant, [job]);
        this.turns.push(tenant);
      }
      this.pump();
    });
  }

  /** PDFs waiting for a worker, all tenants together. */
  get queued(): number {
    let n = 0;
    for (const line of this.waiting.values()) n += line.length;
    return n;
  }

  private nextJob(): Job | undefined {
    const tenant = this.turns.shift();
    if (tenant === undefined) return undefined;
    const line = this.waiting.get(tenant)!;
    const job = line.shift()!;
    if (line.length === 0) this.waiting.delete(tenant);
    else this.turns.push(tenant); // back of the line: the other tenants go first
    return job;
  }

  private pump(): void {
    while (this.turns.length > 0 && this.busy + this.starting < this.limits.workers) {
      const job = this.nextJob()!;
      this.busy += 1;
      void this.run(job).finally(() => {
        this.busy -= 1;
        this.pump();
      });
    }
  }

  private async worker(): Promise<Worker> {
    const ready = this.idle.pop();
    if (ready) return ready;
    const worker = spawn(this.limits.memoryMb);
    worker.unref();
    try {
      await next(
        worker,
        (m): m is { ready: true } => 'ready' in m,
        WORKER_START_LIMIT_MS,
        () => new Error('the PDF worker did not start in time'),
      );
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return worker;
  }

  private async run(job: Job): Promise<void> {
    let worker: Worker | undefined;
    try {
      worker = await this.worker();
      const id = (this.jobs += 1);
      const data = new Uint8Array(job.buf); // a copy, handed over to the worker
      const message: PdfJob = { id, data, field: job.field, maxPages: this.limits.maxPages };
      worker.postMessage(message, [data.buffer as ArrayBuffer]);
      const reply = await next(
        worker,
        (m): m is Extract<PdfWorkerReply, { id: number }> => 'id' in m && m.id === id,
        job.timeLimitMs,
        () => new PdfTimeLimit(),
      );
      this.idle.push(worker);
      worker = undefined;
      if (!reply.ok) {
        if (reply.reason === null) throw new ApiError('internal_error', 'The PDF reader failed unexpectedly.');
        throw invalid(job.field, reply.reason, reply.reason);
      }
      job.resolve({ text: reply.text, pages: reply.pages, title: reply.title });
    } catch (error) {
      // A worker past its limit, out of memory or broken is stopped; the next PDF gets a fresh one.
      if (worker) await worker.terminate();
      if (error instanceof PdfTimeLimit) {
        job.reject(invalid(job.field, `the PDF took longer than ${job.timeLimitMs / 1000} s to read`));
      } else if (isOutOfMemory(error)) {
        job.reject(invalid(job.field, `the PDF needs more than ${this.limits.memoryMb} MiB to read`));
      } else job.reject(error);
    }
  }
}

const readers = new Map<string, PdfReader>();

/** One pool per set of limits (in practice one per process: the configured limits). */
export function pdfReader(limits: PdfLimits = DEFAULT_PDF_LIMITS): PdfReader {
  const key = JSON.stringify(limits);
  let reader = readers.get(key);
  if (!reader) {
    reader = new PdfReader(limits);
    readers.set(key, reader);
  }
  return reader;
}

export interface PdfOptions {
  /** Whose line the PDF waits in (the project id); PDFs of one tenant never hold up another's. */
  tenant?: string;
  limits?: PdfLimits;
  timeLimitMs?: number;
}

/** Reads every page's text, pages apart by a blank line; the field names the input in errors. */
export function pdfToText(buf: Buffer, field = '/body/file', options: PdfOptions = {}): Promise<PdfText> {
  const reader = pdfReader(options.limits);
  return reader.read(buf, field, options.tenant ?? '', options.timeLimitMs);
}
