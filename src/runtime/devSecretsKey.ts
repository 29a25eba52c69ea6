// `npm start` on a developer machine: when GKS_SECRETS_KEY is not set, generate a key once into the
// ignored data folder (mode 600) and use it, so connections work out of the box and survive restarts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function ensureDevSecretsKey(
  env: Record<string, string | undefined>,
  dataDir: string,
): { file: string; created: boolean } | null {
  if (env.GKS_SECRETS_KEY) return null;
  const file = path.join(dataDir, 'secrets.key');
  let created = false;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    created = true;
  }
  env.GKS_SECRETS_KEY = fs.readFileSync(file, 'utf8').trim();
  return { file, created };
}
