// Reads what a caller gave to index (raw text, a URL or an uploaded file) into plain text, a
// title and the facts the document keeps about its source (type, true MIME type, size).
import path from 'node:path';
import { ApiError, invalid, type FieldProblem } from '../errors/catalogue.js';
import { extractText, fetchUrl, markdownTitle, type FetchUrlOptions, type PdfOptions } from './ingest/index.js';
import type { DocumentType } from './schemas.js';

export interface UploadedDocument {
  data: Buffer;
  mimeType: string;
  filename: string;
}

export interface DocumentInput {
  content?: string;
  url?: string;
  title?: string;
  tags?: string[];
  file?: UploadedDocument;
}

export interface SourceText {
  type: DocumentType;
  text: string;
  title: string;
  mimeType: string;
  sizeBytes: number;
  /** The URL asked for, and where it led after redirects. */
  sourceUrl: string | null;
  finalUrl: string | null;
  filename: string | null;
}

/** Past this many characters of text a document is refused: one delta must stay well inside a transaction. */
export const MAX_TEXT_CHARS = 5 * 1024 * 1024;
const MAX_TITLE = 500;

/** Exactly one source: content, url or (multipart) file; otherwise a 400 naming the fields. */
export function checkOneSource(input: DocumentInput): void {
  const given = (['content', 'url', 'file'] as const).filter((k) => input[k] !== undefined);
  if (given.length === 1) return;
  if (input.file !== undefined) {
    const fields: FieldProblem[] = given
      .filter((k) => k !== 'file')
      .map((k) => ({ field: `/body/${k}`, reason: 'must be omitted when a file is uploaded' }));
    throw new ApiError(
      'invalid_request',
      'A multipart upload carries the file alone: content and url are not accepted with it.',
      { fields },
    );
  }
  const reason =
    given.length === 0
      ? 'exactly one of content or url is required'
      : 'exactly one of content or url may be given, not both';
  throw new ApiError(
    'invalid_request',
    'Send exactly one of content (raw text to index) or url (a page to fetch and index); ' +
      `${given.length === 0 ? 'neither was given' : 'both were given'}.`,
    {
      fields: [
        { field: '/body/content', reason },
        { field: '/body/url', reason },
      ],
    },
  );
}

export async function readSource(
  input: DocumentInput,
  fetchOptions: FetchUrlOptions,
  pdf: PdfOptions = {},
): Promise<SourceText> {
  checkOneSource(input);
  let source: SourceText;
  let field: string;
  if (input.content !== undefined) {
    field = '/body/content';
    const text = input.content.replace(/\r\n?/g, '\n').trim();
    source = {
      type: 'text',
      text,
      title: markdownTitle(text) ?? firstSentence(text),
      mimeType: 'text/plain',
      sizeBytes: Buffer.byteLength(input.content, 'utf8'),
      sourceUrl: null,
      finalUrl: null,
      filename: null,
    };
  } else if (input.url !== undefined) {
    field = '/body/url';
    const fetched = await fetchUrl(input.url, fetchOptions);
    const finalUrl = new URL(fetched.finalUrl);
    const extracted = await extractText({
      data: fetched.body,
      mimeType: fetched.mimeType,
      filename: path.posix.basename(finalUrl.pathname),
      field,
      pdf,
    });
    source = {
      type: 'url',
      text: extracted.text,
      title: extracted.title ?? `${finalUrl.host}${finalUrl.pathname === '/' ? '' : finalUrl.pathname}`,
      mimeType: extracted.mimeType,
      sizeBytes: fetched.body.length,
      sourceUrl: new URL(input.url).href,
      finalUrl: fetched.finalUrl,
      filename: null,
    };
  } else {
    field = '/body/file';
    const file = input.file as UploadedDocument; // checkOneSource: the only one left
    const { data, mimeType, filename } = file;
    const extracted = await extractText({ data, mimeType, filename, field, pdf });
    source = {
      type: 'file',
      text: extracted.text,
      title: extracted.title ?? (file.filename || 'untitled'),
      mimeType: extracted.mimeType,
      sizeBytes: file.data.length,
      sourceUrl: null,
      finalUrl: null,
      filename: file.filename || null,
    };
  }
  if (source.text.trim() === '') throw invalid(field, 'contains no text to index');
  if (source.text.length > MAX_TEXT_CHARS) {
    throw new ApiError(
      'payload_too_large',
      `The document's text has ${source.text.length} characters; at most ${MAX_TEXT_CHARS} are indexed as ` +
        'one document.',
      {
        fields: [{ field, reason: `text longer than ${MAX_TEXT_CHARS} characters` }],
        limit_chars: MAX_TEXT_CHARS,
      },
    );
  }
  const title = cleanTitle(input.title ?? '') || cleanTitle(source.title) || 'untitled';
  return { ...source, title };
}

function cleanTitle(title: string): string {
  const clean = title.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_TITLE ? `${clean.slice(0, MAX_TITLE - 1).trimEnd()}…` : clean;
}

/** The first sentence of the first non-empty line, at most 80 characters: the title of raw text that names none. */
function firstSentence(text: string): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const sentence = line.split(/(?<=[.!?])\s/)[0] ?? line;
  if (sentence.length <= 80) return sentence;
  const cut = sentence.slice(0, 80);
  const space = cut.lastIndexOf(' ');
  return `${(space > 40 ? cut.slice(0, space) : cut.slice(0, 79)).trimEnd()}…`;
}
