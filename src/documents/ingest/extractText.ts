// Turns an uploaded or fetched file into plain text and a title. The format is decided by the bytes
// first, since declared types and file names are often wrong, then by the name, then by the
// declared type; binary formats it cannot read are refused rather than indexed as garbage.
import path from 'node:path';
import { invalid } from '../../errors/catalogue.js';
import { htmlToText } from './html.js';
import { pdfToText, type PdfOptions } from './pdf.js';

export type SupportedMimeType = 'application/pdf' | 'text/html' | 'application/json' | 'text/markdown' | 'text/plain';

export interface ExtractInput {
  data: Buffer;
  mimeType: string;
  filename?: string;
  /** JSON pointer that errors name; /body/file unless the bytes came from elsewhere (/body/url). */
  field?: string;
  /** How PDFs are read: the tenant's waiting line and the configured limits. */
  pdf?: PdfOptions;
}

export interface ExtractedText {
  title: string | null;
  text: string;
  mimeType: SupportedMimeType;
}

const BY_EXTENSION: Record<string, SupportedMimeType> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
};

const BY_DECLARED_TYPE: Record<string, SupportedMimeType> = {
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
  'text/plain': 'text/plain',
  'text/html': 'text/html',
  'application/xhtml+xml': 'text/html',
  'application/json': 'application/json',
  'application/pdf': 'application/pdf',
};

/** How far into a file binary content (NUL bytes) is looked for. */
const SNIFF_BYTES = 8192;

export async function extractText(input: ExtractInput): Promise<ExtractedText> {
  const field = input.field ?? '/body/file';
  const mimeType = sniffMimeType(input.data, input.mimeType, input.filename);
  if (mimeType === null) {
    throw invalid(field, 'unsupported file type: binary content that is not a PDF', 'unsupported file type');
  }
  if (mimeType === 'application/pdf') {
    const pdf = await pdfToText(input.data, field, input.pdf);
    return { title: pdf.title, text: pdf.text, mimeType };
  }
  const text = decodeText(input.data);
  switch (mimeType) {
    case 'text/html':
      return { ...htmlToText(text), mimeType };
    case 'application/json':
      return { title: null, text: prettyJson(text), mimeType };
    case 'text/markdown':
      return { title: markdownTitle(text), text: text.trim(), mimeType };
    case 'text/plain':
      return { title: null, text: text.trim(), mimeType };
  }
}

/** The format of the bytes, or null for binary content that is none of the supported ones. */
export function sniffMimeType(data: Buffer, declared: string, filename?: string): SupportedMimeType | null {
  if (data.subarray(0, 1024).includes('%PDF-')) return 'application/pdf';
  const utf16 = utf16Order(data) !== null;
  if (!utf16 && data.subarray(0, SNIFF_BYTES).includes(0)) return null;
  const text = decodeText(data);
  const head = text.slice(0, 1024).trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'text/html';
  if (parsesAsJson(text)) return 'application/json';
  const extension = filename === undefined ? '' : path.extname(filename).toLowerCase();
  const byName = BY_EXTENSION[extension];
  if (byName !== undefined) return byName;
  return BY_DECLARED_TYPE[declared.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'text/plain';
}

/** Only objects and arrays count: a file holding just `42` or `true` is text, not data. */
function parsesAsJson(text: string): boolean {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text.trim(); // named .json but not valid: indexed as written
  }
}

/** The first `# heading` outside fenced code blocks. */
export function markdownTitle(markdown: string): string | null {
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (heading?.[1] !== undefined && heading[1] !== '') return heading[1];
  }
  return null;
}

function utf16Order(data: Buffer): 'le' | 'be' | null {
  if (data[0] === 0xff && data[1] === 0xfe) return 'le';
  if (data[0] === 0xfe && data[1] === 0xff) return 'be';
  return null;
}

/** UTF-8 (or UTF-16 with a byte order mark); bytes that are not valid UTF-8 are read as Latin-1. */
function decodeText(data: Buffer): string {
  const order = utf16Order(data);
  let text: string;
  if (order !== null) {
    const body = Buffer.from(data.subarray(2, data.length - (data.length % 2)));
    text = (order === 'be' ? body.swap16() : body).toString('utf16le');
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      text = data.toString('latin1');
    }
  }
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}
