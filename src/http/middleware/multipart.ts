// Parses a buffered multipart/form-data body: text fields plus one file part (the first with a
// filename). Bodies are already size-capped by the reader, so buffering is bounded.
import { ApiError } from '../../errors/catalogue.js';
import type { UploadedFile } from '../route.js';

export function parseMultipart(raw: Buffer, contentType: string): UploadedFile {
  const boundaryMatch = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  if (!boundary) throw new ApiError('invalid_request', 'multipart body without a boundary', { fields: [{ field: '/body', reason: 'no boundary' }] });
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  let start = raw.indexOf(delimiter);
  while (start !== -1) {
    const partStart = start + delimiter.length;
    if (raw.subarray(partStart, partStart + 2).toString() === '--') break;
    const next = raw.indexOf(delimiter, partStart);
    if (next === -1) break;
    const part = raw.subarray(partStart + 2, next - 2); // skip CRLF after delimiter and before next
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const data = part.subarray(headerEnd + 4);
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      const type = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim().toLowerCase();
      if (filename !== undefined && file === undefined) {
        file = { filename, mimeType: type ?? 'application/octet-stream', data: Buffer.from(data), fields };
      } else if (name !== undefined) {
        fields[name] = data.toString('utf8');
      }
    }
    start = next;
  }
  if (!file) {
    throw new ApiError('invalid_request', 'multipart body has no file part', { fields: [{ field: '/body/file', reason: 'is required in a multipart upload' }] });
  }
  return file;
}
