// Logger options every process uses: JSON lines with credentials redacted wherever a log call
// might carry them (authorization headers, tokens, secrets), so no log line holds a credential.
import type { LoggerOptions } from 'pino';

/** Paths pino censors before a line is written (one level of nesting and request headers). */
export const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'secret.token',
  '*.secret.token',
  'api_key',
  '*.api_key',
  'password',
  '*.password',
];

export function loggerOptions(level: string): LoggerOptions {
  return { level, base: { service: 'gks' }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
}
