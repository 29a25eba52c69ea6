// Deterministic ids for what a loop stages: the same loop extracting the same entity gets the same
// id on every attempt, so a retried activity finds it already staged and never stages it twice.
import crypto from 'node:crypto';

export function deterministicId(...parts: string[]): string {
  const h = crypto.createHash('sha256').update(parts.join('\u241f')).digest('hex');
  // UUID form (version 5 layout, RFC 9562 variant) so it reads like every other id.
  const variant = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}
