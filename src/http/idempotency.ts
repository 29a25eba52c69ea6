// Idempotency-Key on writing POSTs (Stripe's rules): the same key and body within 24 h replay the
// first response without a second write; the same key with another body, or while the first
// request is still running, is a 409. Unexpected (5xx) failures release the key for a retry.
import crypto from 'node:crypto';
import type { Graph } from '../db/graph.js';
import { ApiError } from '../errors/catalogue.js';
import type { ApiContext, HandlerResult, IdempotentRecord } from './route.js';

/** Visible ASCII, 1 to 255 characters (published in the OpenAPI document as the header's pattern). */
export const IDEMPOTENCY_KEY_PATTERN = /^[!-~]{1,255}$/;

/** Keeps an answer as it is (routes whose answers hold no secret). */
const AS_IS: IdempotentRecord = { keep: (body) => body, replay: (kept) => kept };

export async function withIdempotency(
  graph: Graph,
  ctx: ApiContext,
  run: () => Promise<HandlerResult>,
  record: IdempotentRecord = AS_IS,
): Promise<HandlerResult> {
  const key = ctx.get('Idempotency-Key');
  if (key === '' && ctx.headers['idempotency-key'] === undefined) return run();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      fields: [{ field: '/headers/idempotency-key', reason: 'malformed' }],
    });
  }
  const keyId = ctx.state.auth?.keyId ?? 'anonymous';
  const scopeKey = `${keyId}:${key}`;
  const fingerprint = crypto
    .createHash('sha256')
    .update(`${ctx.method} ${ctx.url}\n`)
    .update(ctx.state.rawBody ?? Buffer.alloc(0))
    .digest('hex');
  const token = crypto.randomUUID();
  const claim = await graph.write((tx) =>
    tx.one('idempotency/claim', { scope_key: scopeKey, token, fingerprint, key_id: keyId, idempotency_key: key }),
  );
  if (!claim) throw new Error('idempotency claim returned nothing');
  if (claim.token !== token) {
    if (claim.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was already used with a different request.', {
        idempotency_key: key,
      });
    }
    if (claim.state !== 'completed') {
      throw new ApiError('idempotency_conflict', 'A request with this Idempotency-Key is still in progress.', {
        idempotency_key: key,
      });
    }
    const kept = JSON.parse(String(claim.response_json)) as Record<string, unknown>;
    delete kept.request_id;
    const status = Number(claim.status);
    // An error answer was kept as it is (it holds no secret).
    const body = status < 400 ? record.replay(kept) : kept;
    return { status, body, headers: { 'Idempotent-Replayed': 'true' } };
  }
  let result: HandlerResult;
  try {
    result = await run();
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const body = { error: { code: error.code, message: error.message, details: error.details } };
      await graph.write((tx) =>
        tx.run('idempotency/complete', {
          scope_key: scopeKey,
          token,
          status: error.status,
          response_json: JSON.stringify(body),
        }),
      );
    } else {
      await graph.write((tx) => tx.run('idempotency/release', { scope_key: scopeKey, token })).catch(() => undefined);
    }
    throw error;
  }
  await graph.write((tx) =>
    tx.run('idempotency/complete', {
      scope_key: scopeKey,
      token,
      status: result.status ?? 200,
      response_json: JSON.stringify(record.keep(result.body)),
    }),
  );
  return result;
}
