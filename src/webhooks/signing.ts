// Signing secrets of webhook endpoints: generated as Standard Webhooks secrets (whsec_ + base64 of
// 24 random bytes), sealed like a connection's token (AES-256-GCM under GKS_SECRETS_KEY, bound to
// the project and the secret's own id, fingerprint only afterwards), and used to sign with the
// `standardwebhooks` library: every secret still signing gives one signature, space-separated.
import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../config/config.js';
import { open, seal, type SealedSecret } from '../connections/secrets.js';

export function newSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/** The secret sealed for the store; the associated data binds it to `webhook:<secret id>`. */
export function sealSecret(
  config: Config['secrets'],
  projectId: string,
  secretId: string,
  secret: string,
): SealedSecret {
  return seal(config, projectId, `webhook:${secretId}`, secret);
}

export interface StoredSecret {
  id: string;
  ciphertext: string;
  iv: string;
  tag: string;
  key_id: string;
}

export function openSecret(config: Config['secrets'], projectId: string, stored: StoredSecret): string {
  return open(config, projectId, `webhook:${stored.id}`, stored);
}

/**
 * A secret as the idempotency record of its answer keeps it (create and rotate-secret are idempotent by
 * Idempotency-Key): sealed as the stored secret is, bound to its endpoint's answers, so a replay can answer it
 * again and the record never holds it in clear.
 */
export function sealAnswerSecret(
  config: Config['secrets'],
  projectId: string,
  endpointId: string,
  secret: string,
): Omit<StoredSecret, 'id'> {
  const { ciphertext, iv, tag, key_id } = seal(config, projectId, `webhook-answer:${endpointId}`, secret);
  return { ciphertext, iv, tag, key_id };
}

export function openAnswerSecret(
  config: Config['secrets'],
  projectId: string,
  endpointId: string,
  sealed: Omit<StoredSecret, 'id'>,
): string {
  return open(config, projectId, `webhook-answer:${endpointId}`, sealed);
}

/** The webhook-signature header value: one `v1,<base64>` per secret, space-separated. */
export function signatures(secrets: readonly string[], messageId: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' ');
}
