// Helpers of the governance tests: PATCH and DELETE calls with a tenant's key, memories through the
// API, and the audit of a delta reduced to what a reviewer acts on.
import assert from 'node:assert/strict';
import { call, type Reply, type Tenant } from '../support/api.js';
import type { FindingBody } from '../preflight/support.js';

/** A fact memory's body: "subject predicate object." with its subject, predicate and object. */
export const fact = (subject: string, predicate: string, object: string, extra: Record<string, unknown> = {}) => ({
  content: `${subject} ${predicate} ${object}.`,
  kind: 'fact',
  subject,
  predicate,
  object,
  ...extra,
});

export const patch = (t: Tenant, path: string, body: unknown): Promise<Reply> =>
  call('PATCH', path, body, { key: t.key });
export const del = (t: Tenant, path: string): Promise<Reply> => call('DELETE', path, undefined, { key: t.key });

export async function memory(t: Tenant, body: Record<string, unknown>): Promise<{ id: string; delta_id: string }> {
  const reply = await t.post('/v1/memories', body);
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return { id: reply.body.id, delta_id: reply.body.delta_id };
}

/** The audit verdict without request_id (compared byte for byte across runs). */
export async function verdict(
  t: Tenant,
  deltaId: string,
): Promise<{ text: string; disposition: string; findings: FindingBody[] }> {
  const reply = await t.post('/v1/preflight/audit', { delta_id: deltaId });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  const { request_id: _ignored, ...rest } = reply.body as Record<string, unknown>;
  return {
    text: JSON.stringify(rest),
    disposition: String(rest.disposition),
    findings: rest.findings as FindingBody[],
  };
}

export const rulesOf = (findings: FindingBody[], check?: string): string[] =>
  findings
    .filter((f) => !check || f.check === check)
    .map((f) => `${f.check}:${String(f.evidence.rule)}`)
    .sort();
