// Reads the text of a PDF with pdf.js (Mozilla's reader, the de facto standard), in the thread it is
// called from: pdf.ts runs it in a worker thread with a time limit, never on the API's event loop.
// The legacy build is the one that supports Node 20; pdf.js's own worker runs in that same thread,
// and fonts and character maps come from the package on disk, so nothing is ever fetched.
import { createRequire } from 'node:module';
import path from 'node:path';
import { invalid } from '../../errors/catalogue.js';
import { tidyText } from './whitespace.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

export interface PdfText {
  text: string;
  pages: number;
  title: string | null;
}

const ASSETS = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

let loading: Promise<PdfJs> | undefined;

/** Loads pdf.js once, on first use: it is large and most documents are not PDFs. */
export function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loading;
}

/** Reads every page's text, pages apart by a blank line; the field names the input in errors. */
export async function readPdfText(buf: Uint8Array, field = '/body/file', maxPages = Infinity): Promise<PdfText> {
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    data: new Uint8Array(buf), // a copy: pdf.js takes ownership of what it is given
    standardFontDataUrl: `${ASSETS}/standard_fonts/`,
    cMapUrl: `${ASSETS}/cmaps/`,
    cMapPacked: true,
    wasmUrl: `${ASSETS}/wasm/`,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  try {
    let doc: PdfDocument;
    try {
      doc = await task.promise;
    } catch (err) {
      const reason =
        (err as Error).name === 'PasswordException' ? 'the PDF is password-protected' : 'the PDF could not be read';
      throw invalid(field, reason, reason);
    }
    if (doc.numPages > maxPages) {
      const reason = `the PDF has ${doc.numPages} pages; at most ${maxPages} are read`;
      throw invalid(field, reason, reason);
    }
    const pages: string[] = [];
    for (let number = 1; number <= doc.numPages; number += 1) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      pages.push(
        tidyText(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('')),
      );
      page.cleanup();
    }
    return { text: pages.filter((p) => p !== '').join('\n\n'), pages: doc.numPages, title: await titleOf(doc) };
  } finally {
    await task.destroy();
  }
}

async function titleOf(doc: PdfDocument): Promise<string | null> {
  const { info, metadata } = await doc.getMetadata();
  const fromInfo = (info as Record<string, unknown>).Title;
  const candidates = [typeof fromInfo === 'string' ? fromInfo : null, metadata?.get('dc:title') ?? null];
  for (const candidate of candidates) {
    const title = typeof candidate === 'string' ? candidate.replace(/\s+/g, ' ').trim() : '';
    if (title !== '') return title;
  }
  return null;
}
