// Worker thread entry: reads the text of each PDF it is sent (pdfRead.ts), one at a time, and
// posts the result or the reason it could not be read. pdf.ts runs it and terminates it when a PDF
// takes too long.
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../../errors/catalogue.js';
import { loadPdfJs, readPdfText } from './pdfRead.js';

export interface PdfJob {
  id: number;
  data: Uint8Array;
  field: string;
  /** Pages a PDF may have; more is refused before any page is read. */
  maxPages: number;
}

export type PdfWorkerReply =
  | { ready: true }
  | { id: number; ok: true; text: string; pages: number; title: string | null }
  | { id: number; ok: false; reason: string | null };

parentPort?.on('message', (job: PdfJob) => {
  readPdfText(job.data, job.field, job.maxPages).then(
    (pdf) => parentPort?.postMessage({ id: job.id, ok: true, ...pdf } satisfies PdfWorkerReply),
    (error: unknown) => {
      // A reason the caller may show (password-protected, unreadable); anything else is unexpected.
      const reason = error instanceof ApiError ? (error.details.fields?.[0]?.reason ?? error.message) : null;
      parentPort?.postMessage({ id: job.id, ok: false, reason } satisfies PdfWorkerReply);
    },
  );
});
// Ready once pdf.js is loaded, so a PDF's time limit counts reading only.
void loadPdfJs().then(() => parentPort?.postMessage({ ready: true } satisfies PdfWorkerReply));
