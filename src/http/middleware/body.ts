// Request bodies: an oversized declared length is refused at once; the body itself is read only
// after authentication (readRequestBody, called by the route), JSON with a size limit (400 when
// malformed or not an object, 413 past the limit) or multipart/form-data streamed with one file part.
import type { Middleware } from 'koa';
import { ApiError } from '../../errors/catalogue.js';
import type { ApiContext, ApiState } from '../route.js';
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

export interface BodyLimits {
  /** JSON bodies, in bytes. */
  json: number;
  /** One uploaded file, in bytes (multipart routes only). */
  upload: number;
}

function tooLarge(limit: number, what = 'The request body'): ApiError {
  return new ApiError('payload_too_large', `${what} exceeds the limit of ${limit} bytes.`, { limit_bytes: limit });
}

/**
 * Refuses at once, before authentication and without reading a byte of it, a body whose declared
 * Content-Length is past what its route could accept (413).
 */
export function refuseOversized(limits: BodyLimits, acceptsMultipart: (path: string) => boolean): Middleware<ApiState> {
  return async (ctx, next) => {
    const length = ctx.get('Content-Length');
    const declared = length ? Number(length) : undefined;
    if (declared !== undefined && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) {
      if (ctx.request.type === 'multipart/form-data' && acceptsMultipart(ctx.path)) {
        if (declared > limits.upload + MULTIPART_OVERHEAD) throw tooLarge(limits.upload, 'The upload');
      } else if (declared > limits.json) throw tooLarge(limits.json);
    }
    return next();
  };
}

/**
 * Reads the request body of an authenticated request (the route calls it after authentication and
 * the rate limits, so an anonymous caller never makes the service read, let alone buffer, a body):
 * JSON (400 when malformed or not an object, 413 past the limit, counted while reading) or, on
 * routes that accept it, multipart/form-data streamed with one file part and its limit enforced
 * while reading.
 */
export async function readRequestBody(ctx: ApiContext, limits: BodyLimits, multipart: boolean): Promise<void> {
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return;
  const length = ctx.get('Content-Length');
  const declared = length ? Number(length) : undefined;
  const type = ctx.request.type;
  if (type === 'multipart/form-data' && multipart) {
    if (declared !== undefined && declared > limits.upload + MULTIPART_OVERHEAD)
      throw tooLarge(limits.upload, 'The upload');
    // Streamed, never buffered whole; the idempotency fingerprint takes the body's digest.
    const { upload, digest } = await readMultipart(ctx.req, { fileBytes: limits.upload, ...DEFAULT_FIELD_LIMITS });
    ctx.state.rawBody = digest;
    ctx.state.upload = upload;
    (ctx.request as { body?: unknown }).body = { ...upload.fields };
    return;
  }
  const raw = await readRaw(ctx.req, limits.json, declared);
  ctx.state.rawBody = raw;
  if (raw.length === 0) {
    (ctx.request as { body?: unknown }).body = {};
    return;
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
}
