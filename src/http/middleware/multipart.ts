// Streams a multipart/form-data body through busboy: text fields plus one file part (the first
// with a filename), with limits on the file's size, the number of parts and fields and each field's
// size. Past a limit the request is refused with 413 as soon as it is seen, without reading on.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { ApiError } from '../../errors/catalogue.js';
import type { UploadedFile } from '../route.js';

export interface MultipartLimits {
  /** Largest file part, in bytes. */
  fileBytes: number;
  /** Most text fields. */
  fields: number;
  /** Largest text field, in bytes. */
  fieldBytes: number;
}

export const DEFAULT_FIELD_LIMITS = { fields: 20, fieldBytes: 65_536 } as const;

const tooLarge = (what: string, details: Record<string, unknown>) =>
  new ApiError('payload_too_large', `The multipart body is too large: ${what}.`, details);

/** The upload and a SHA-256 digest of the raw body (for idempotency fingerprints). */
export function readMultipart(
  req: IncomingMessage,
  limits: MultipartLimits,
): Promise<{ upload: UploadedFile; digest: Buffer }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fileSize: limits.fileBytes,
          files: 1,
          fields: limits.fields,
          fieldSize: limits.fieldBytes,
          parts: limits.fields + 1,
          headerPairs: 50,
        },
      });
    } catch {
      reject(
        new ApiError('invalid_request', 'multipart body without a boundary', {
          fields: [{ field: '/body', reason: 'no boundary' }],
        }),
      );
      return;
    }
    const hash = crypto.createHash('sha256');
    const fields: Record<string, string> = {};
    let file: UploadedFile | undefined;
    let failed = false;
    const fail = (error: ApiError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume(); // drain what the client still sends, so it reads our answer
      reject(error);
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        fail(
          tooLarge(`field ${name} exceeds ${limits.fieldBytes} bytes`, { field: name, limit_bytes: limits.fieldBytes }),
        );
      else fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () =>
        fail(tooLarge(`the file exceeds ${limits.fileBytes} bytes`, { limit_bytes: limits.fileBytes })),
      );
      stream.on('end', () => {
        if (!stream.truncated)
          file = {
            filename: info.filename ?? 'upload',
            mimeType: (info.mimeType || 'application/octet-stream').toLowerCase(),
            data: Buffer.concat(chunks),
            fields,
          };
      });
    });
    parser.on('filesLimit', () => fail(tooLarge('only one file part is accepted', { max_files: 1 })));
    parser.on('fieldsLimit', () => fail(tooLarge(`more than ${limits.fields} fields`, { max_fields: limits.fields })));
    parser.on('partsLimit', () =>
      fail(tooLarge(`more than ${limits.fields + 1} parts`, { max_parts: limits.fields + 1 })),
    );
    parser.on('error', (error: Error) =>
      fail(
        new ApiError('invalid_request', `The multipart body could not be read: ${error.message}`, {
          fields: [{ field: '/body', reason: 'malformed multipart' }],
        }),
      ),
    );
    parser.on('close', () => {
      if (failed) return;
      if (!file) {
        fail(
          new ApiError('invalid_request', 'multipart body has no file part', {
            fields: [{ field: '/body/file', reason: 'is required in a multipart upload' }],
          }),
        );
        return;
      }
      resolve({ upload: file, digest: hash.digest() });
    });
    req.on('data', (chunk: Buffer) => hash.update(chunk));
    req.pipe(parser);
  });
}
