// What the queue and the delta page share: a delta as /v1 returns it, and preflight verdicts cached in the
// tab's memory per delta and graph state (the newest staged delta when the queue was read), never written.
import { api } from './api.js';
import { h } from './dom.js';

export interface Delta {
  id: string;
  status: string;
  origin: string;
  summary: string;
  change_count: number;
  created_by: string;
  created_at: string;
  reason: string | null;
  changes?: Change[];
  changes_truncated?: boolean;
}
export interface Change {
  seq: number;
  change_id: string;
  op: string;
  node_id: string | null;
  labels: string[] | null;
  properties: Record<string, unknown> | null;
  relationship_id: string | null;
  type: string | null;
  from: string | null;
  to: string | null;
  set?: { key: string; value: unknown; previous: unknown }[];
}
export interface Finding {
  check: string;
  severity: string;
  message: string;
  node_ids: string[];
  relationship_ids: string[];
  evidence: Record<string, unknown>;
}
export interface Verdict {
  disposition: 'SafeToAct' | 'ReviewRequired' | 'Blocked';
  findings: Finding[];
}

const verdicts = new Map<string, Verdict>();
let graphState = '';

export function setGraphState(newestStaged: string): void {
  graphState = newestStaged;
}
const vkey = (id: string) => `${id}@${graphState}`;

export const cachedVerdict = (id: string): Verdict | undefined => verdicts.get(vkey(id));
export const forgetVerdict = (id: string): boolean => verdicts.delete(vkey(id));
export const forgetVerdicts = (): void => verdicts.clear();

export async function preflight(id: string): Promise<Verdict> {
  const cached = verdicts.get(vkey(id));
  if (cached) return cached;
  const v = await api<Verdict>('POST', '/v1/preflight/audit', { delta_id: id });
  verdicts.set(vkey(id), v);
  return v;
}

export function badge(disposition: string): HTMLElement {
  return h('span', { class: `badge ${disposition}` }, disposition);
}
