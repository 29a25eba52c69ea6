// Reads request bodies with a size limit: JSON (400 when malformed or not an object, 413 past the
// limit) and, on routes that accept it, multipart/form-data streamed with one file part.
import type { Middleware } from 'koa';
import { ApiError } from '../../errors/catalogue.js';
import type { ApiState } from '../route.js';
import { DEFAULT_FIELD_LIMITS, readMultipart } from './multipart.js';

/** Room for part headers and text fields beside an upload of the full size. */
const MULTIPART_OVERHEAD = DEFAULT_FIELD_LIMITS.fields * DEFAULT_FIELD_LIMITS.fieldBytes + 65_536;

async function readRaw(req: NodeJS.ReadableStream, limit: number, declared: number | undefined): Promise<Buffer> {
  if (declared !== undefined && declared > limit) {
    throw new ApiError('payload_too_large', `The request body exceeds the limit of ${limit} bytes.`, {
      limit_bytes: limit,
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) {
      throw new ApiError('payload_too_large', `The request body exceeds the limit of ${limit} bytes.`, {
        limit_bytes: limit,
      });
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export function readBody(
  limit: number,
  uploadLimit: number,
  acceptsMultipart: (path: string) => boolean,
): Middleware<ApiState> {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return next();
    const length = ctx.get('Content-Length');
    const declared = length ? Number(length) : undefined;
    const type = ctx.request.type;
    if (type === 'multipart/form-data' && acceptsMultipart(ctx.path)) {
      if (declared !== undefined && declared > uploadLimit + MULTIPART_OVERHEAD) {
        throw new ApiError('payload_too_large', `The upload exceeds the limit of ${uploadLimit} bytes.`, {
          limit_bytes: uploadLimit,
        });
      }
      // Streamed, never buffered whole; the idempotency fingerprint takes the body's digest.
      const { upload, digest } = await readMultipart(ctx.req, { fileBytes: uploadLimit, ...DEFAULT_FIELD_LIMITS });
      ctx.state.rawBody = digest;
      ctx.state.upload = upload;
      (ctx.request as { body?: unknown }).body = { ...upload.fields };
      return next();
    }
    const raw = await readRaw(ctx.req, limit, declared);
    ctx.state.rawBody = raw;
    if (raw.length === 0) {
      (ctx.request as { body?: unknown }).body = {};
      return next();
    }
    if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
      throw new ApiError('unsupported_media_type', `Content-Type ${type} is not accepted; send application/json.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      throw new ApiError('invalid_request', `The body is not valid JSON: ${(error as Error).message}`, {
        fields: [{ field: '/body', reason: 'malformed JSON' }],
      });
    }
    // Every JSON body of this API is an object; null, numbers, strings and arrays are refused here,
    // once, so no route ever sees them.
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ApiError('invalid_request', 'The body must be a JSON object.', {
        fields: [{ field: '/body', reason: 'must be a JSON object' }],
      });
    }
    (ctx.request as { body?: unknown }).body = parsed;
    return next();
  };
}
