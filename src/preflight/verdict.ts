// The audit verdict (docs/preflight.md): a disposition and findings, never a score. The disposition follows
// from the findings alone, so the same findings always give the same verdict.
import type { Finding } from './checks.js';

/** A finding counts toward the verdict unless the condition it reports held before the delta (touches). */
export const counts = (f: Finding): boolean => f.effect !== 'touches';

export const PURPOSE = 'delta-apply';
export const PACKET_PREFIX = 'pkt_';
export const DISPOSITIONS = ['SafeToAct', 'ReviewRequired', 'Blocked'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export interface Verdict {
  disposition: Disposition;
  purpose: typeof PURPOSE;
  findings: Finding[];
  packet_id: string;
  delta: { degrades: boolean };
}

export function packetId(deltaId: string): string {
  return `${PACKET_PREFIX}${deltaId}`;
}

/**
 * Blocked on any error; ReviewRequired on warnings only; SafeToAct otherwise (info findings do not
 * degrade). Only findings the delta introduces or worsens count: a condition it merely touches
 * held before it and is not charged to it.
 */
export function dispositionOf(findings: Finding[]): Disposition {
  if (findings.some((f) => counts(f) && f.severity === 'error')) return 'Blocked';
  if (findings.some((f) => counts(f) && f.severity === 'warning')) return 'ReviewRequired';
  return 'SafeToAct';
}

export function verdictOf(deltaId: string, findings: Finding[]): Verdict {
  return {
    disposition: dispositionOf(findings),
    purpose: PURPOSE,
    findings,
    packet_id: packetId(deltaId),
    delta: { degrades: findings.some((f) => counts(f) && f.severity !== 'info') },
  };
}
