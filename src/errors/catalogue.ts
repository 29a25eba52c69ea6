// The typed catalogue of API errors. Every failure the API reports is one of these codes; the
// handler in http/middleware/errors.ts turns them into the one error envelope. Status is decided by
// the code, never by matching message text.

export const ERROR_CATALOGUE = {
  invalid_request: {
    status: 400,
    description:
      'The request is malformed (or could not be read at all) or a field is invalid; details name each field by ' +
      'JSON pointer.',
  },
  unauthorized: { status: 401, description: 'Missing, malformed, unknown or revoked API key.' },
  payment_required: { status: 402, description: 'Reserved.' },
  credits_exhausted: { status: 402, description: 'The organization lacks credits to start execution.' },
  forbidden: {
    status: 403,
    description: 'The key lacks a scope or may not act on the project; details name the missing scope.',
  },
  not_found: { status: 404, description: 'No such route or resource (in this project).' },
  method_not_allowed: {
    status: 405,
    description: 'The route exists but not with this method; the Allow header lists the methods.',
  },
  conflict: { status: 409, description: 'The resource is not in a state that allows this action.' },
  idempotency_conflict: { status: 409, description: 'The Idempotency-Key was used with a different request.' },
  payload_too_large: { status: 413, description: 'The body exceeds the size limit.' },
  unsupported_media_type: { status: 415, description: 'The body is not JSON (or multipart where accepted).' },
  unsupported_loop_kind: { status: 400, description: 'kind is neither graph_extraction nor hydrate.' },
  unsupported_loop_effort: { status: 400, description: 'effort is neither agentic nor agentic_plus.' },
  apply_not_supported_for_loops: {
    status: 400,
    description: 'A loop request asks to apply; loops only stage deltas, which are applied after review.',
  },
  secret_rebind_required: {
    status: 409,
    description: "A connection's base_url moves to another scheme, host or port; send a new secret with the change.",
  },
  sync_in_progress: {
    status: 409,
    description: 'A sync of this connection is running, or its last sync delta awaits review.',
  },
  rate_limited: {
    status: 429,
    description:
      'Too many requests for this key (or, before authentication, from this address); Retry-After says when to ' +
      'try again. The limits are checked before the body is read or validated: over a limit every request ' +
      'answers 429, and requests that validation refuses count toward it.',
  },
  internal_error: { status: 500, description: 'Unexpected failure; no internals are shown.' },
  upstream_error: { status: 502, description: 'A remote source (URL to index, LLM endpoint) failed.' },
  graph_unavailable: { status: 503, description: 'Neo4j is unreachable.' },
  secrets_unavailable: {
    status: 503,
    description:
      'No secrets key is configured (GKS_SECRETS_KEY); connection and webhook secrets are never stored in plaintext.',
  },
  loop_dispatch_unavailable: {
    status: 503,
    description: 'Loop execution is temporarily unavailable (Temporal unreachable).',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface FieldProblem {
  /** JSON pointer into the request, prefixed by where it was: /body/memories/3/kind, /query/limit. */
  field: string;
  reason: string;
}

export type ErrorDetails = Record<string, unknown> & { fields?: FieldProblem[] };

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_CATALOGUE[code].status;
  }
}

export function invalid(field: string, reason: string, message?: string): ApiError {
  return new ApiError('invalid_request', message ?? `${field}: ${reason}`, { fields: [{ field, reason }] });
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError('not_found', `${what} ${id} was not found`, { resource: what, id });
}

export function conflict(message: string, details: ErrorDetails = {}): ApiError {
  return new ApiError('conflict', message, details);
}
