// Deterministic ids for what a loop stages: the same loop extracting the same entity gets the same
// id on every attempt, so a retried activity finds it already staged and never stages it twice.
import crypto from 'node:crypto';

export function deterministicId(...parts: string[]): string {
  const hex = crypto.createHash('sha256').update(parts.join('\u241f')).digest('hex');
  // UUID form (version 5 layout, RFC 9562 variant) so it reads like every other id.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
