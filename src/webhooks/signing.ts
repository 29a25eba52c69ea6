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

/** The webhook-signature header value: one `v1,<base64>` per secret, space-separated. */
export function signatures(secrets: readonly string[], messageId: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' ');
}
