// Connection secrets: AES-256-GCM under the configured key, bound to the project and connection as
// associated data (a ciphertext copied onto another connection does not decrypt), with the key's id
// kept for rotation. Without a key nothing is stored: plaintext is never an option.
import crypto from 'node:crypto';
import type { Config } from '../config/config.js';
import { ApiError } from '../errors/catalogue.js';

export interface SealedSecret {
  ciphertext: string;
  iv: string;
  tag: string;
  key_id: string;
  fingerprint: string;
}

type SecretsConfig = Config['secrets'];

/** The id of a key: a digest prefix, so a stored secret names the key that sealed it without revealing it. */
export function keyId(key: Buffer): string {
  return `k_${crypto.createHash('sha256').update('gks-secrets-key-id').update(key).digest('hex').slice(0, 12)}`;
}

function currentKey(config: SecretsConfig): Buffer {
  if (!config.key)
    throw new ApiError(
      'secrets_unavailable',
      'No secrets key is configured (GKS_SECRETS_KEY), so a secret (a connection token, a webhook signing ' +
        'secret) cannot be stored; it is never stored in plaintext.',
    );
  return config.key;
}

function associatedData(projectId: string, connectionId: string): Buffer {
  return Buffer.from(`gks-connection-secret:v1:${projectId}:${connectionId}`);
}

/**
 * An HMAC of the token under a key derived from the secrets key: the same token gives the same fingerprint, and none of
 * the token shows.
 */
export function fingerprint(config: SecretsConfig, token: string): string {
  const macKey = crypto.createHmac('sha256', currentKey(config)).update('gks-fingerprint-key').digest();
  return `hmac:${crypto.createHmac('sha256', macKey).update(token).digest('hex').slice(0, 16)}`;
}

export function seal(config: SecretsConfig, projectId: string, connectionId: string, token: string): SealedSecret {
  const key = currentKey(config);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(projectId, connectionId));
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return {
    ciphertext: ciphertext.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    key_id: keyId(key),
    fingerprint: fingerprint(config, token),
  };
}

/** Opens a sealed secret with whichever configured key (current or previous) sealed it. */
export function open(
  config: SecretsConfig,
  projectId: string,
  connectionId: string,
  sealed: Pick<SealedSecret, 'ciphertext' | 'iv' | 'tag' | 'key_id'>,
): string {
  const keys = [config.key, ...config.previousKeys].filter((k): k is Buffer => k !== null);
  const key = keys.find((k) => keyId(k) === sealed.key_id);
  if (!key)
    throw new ApiError(
      'secrets_unavailable',
      `The key ${sealed.key_id} that sealed this connection's secret is not configured; add it to ` +
        'GKS_SECRETS_PREVIOUS_KEYS or set a new secret.',
    );
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(associatedData(projectId, connectionId));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
}

/** Removes every occurrence of the token (and its URL-encoded form) from text bound for a log, the graph or a reply. */
export function scrub(text: string, token: string | null | undefined): string {
  if (!token) return text;
  let out = text;
  for (const form of new Set([token, encodeURIComponent(token), Buffer.from(token).toString('base64')])) {
    if (form.length >= 4) out = out.split(form).join('[redacted]');
  }
  return out;
}
