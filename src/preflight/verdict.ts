// The audit verdict (docs/preflight.md): a disposition and findings, never a score. The disposition follows
// from the findings alone, so the same findings always give the same verdict.
import type { Finding } from './checks.js';

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

/** Blocked on any error; ReviewRequired on warnings only; SafeToAct otherwise (info findings do not degrade). */
export function dispositionOf(findings: Finding[]): Disposition {
  if (findings.some((f) => f.severity === 'error')) return 'Blocked';
  if (findings.some((f) => f.severity === 'warning')) return 'ReviewRequired';
  return 'SafeToAct';
}

export function verdictOf(deltaId: string, findings: Finding[]): Verdict {
  return {
    disposition: dispositionOf(findings),
    purpose: PURPOSE,
    findings,
    packet_id: packetId(deltaId),
    delta: { degrades: findings.some((f) => f.severity !== 'info') },
  };
}
