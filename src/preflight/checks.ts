// The preflight checks are the statement files of cypher/preflight/, run in file-name order inside
// the caller's transaction. Adding a check is adding a file: each returns rows with the columns
// check (its file name), severity, message, node_ids, relationship_ids and evidence (a flat map),
// and optionally effect (introduces, worsens, touches; absent: introduces).
import { cypherFolder } from '../db/cypher.js';
import { ConcurrentDeletion, type Tx } from '../db/graph.js';
import type { Plain } from '../db/values.js';

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * What the delta does to the condition a finding reports (docs/preflight.md): introduces it,
 * worsens one that already held, or merely touches one that already held before it (which does
 * not count toward the disposition). A check that returns no effect column introduces.
 */
export const EFFECTS = ['introduces', 'worsens', 'touches'] as const;
export type Effect = (typeof EFFECTS)[number];

export interface Finding {
  check: string;
  severity: Severity;
  effect: Effect;
  message: string;
  node_ids: string[];
  relationship_ids: string[];
  /** Always the sub-rule of the check (published as required). */
  evidence: Record<string, Plain> & { rule: string };
}

export interface Check {
  /** File name without .cypher: the value the statement must return in its check column. */
  name: string;
  text: string;
}

let loaded: Check[] | undefined;

/** The checks of cypher/preflight/ as their files say, read once per process. */
export function preflightCheckFiles(): Check[] {
  loaded ??= cypherFolder('preflight').map((f) => ({ name: f.name.replace(/^preflight\//, ''), text: f.text }));
  return loaded;
}

/**
 * A check as the plan set `set` runs it: Neo4j's `replan=skip` (the cached plan is used even when
 * statistics have moved) and a leading no-op `WITH` naming the set, which makes it a statement of its
 * own in Neo4j's plan cache (a comment would not: comments are not part of the statement).
 */
export function inPlanSet(check: Check, set: number): Check {
  return { name: check.name, text: `CYPHER replan=skip WITH 0 AS gks_plan_set_${set}\n${check.text}` };
}

/**
 * The plan set requests use (src/preflight/plans.ts) and its statements, built once per move: null
 * runs the files as they are, under Neo4j's own replanning.
 */
let planned: { set: number; checks: Check[] } | null = null;

export function usePlanSet(set: number): void {
  if (planned?.set !== set) planned = { set, checks: preflightCheckFiles().map((c) => inPlanSet(c, set)) };
}

export function currentPlanSet(): number | null {
  return planned?.set ?? null;
}

/** The checks as requests run them now. */
export function preflightChecks(): Check[] {
  return planned?.checks ?? preflightCheckFiles();
}

/** Runs every check against the delta as if merged; findings sorted so equal graphs give equal bytes. */
export async function runChecks(
  tx: Tx,
  deltaId: string,
  projectId: string,
  now: string,
  checks: Check[] = preflightChecks(),
): Promise<Finding[]> {
  const findings = new Map<string, Finding>();
  for (const check of checks) {
    const rows = await tx.runText(check.text, { delta_id: deltaId, project_id: projectId, now });
    for (const row of rows) {
      if (!hasMessage(row) && (await namesDeletedNode(tx, row)))
        throw new ConcurrentDeletion(`cypher/preflight/${check.name}.cypher read a node a concurrent write deleted`);
      const finding = toFinding(check.name, row);
      findings.set(JSON.stringify(finding), finding); // one finding per distinct content
    }
  }
  return sortFindings([...findings.values()]);
}

const hasMessage = (row: Record<string, Plain>): row is Record<string, Plain> & { message: string } =>
  typeof row.message === 'string' && row.message !== '';

/**
 * Whether a row names a node that is gone: one a concurrent write deleted while the check read it. Its properties
 * then read as null, and so does a message built from them; the whole audit runs again (Graph retries a
 * ConcurrentDeletion) and reads what is committed now. A row without a message whose nodes all exist is a bug of
 * its check file (toFinding says so).
 */
async function namesDeletedNode(tx: Tx, row: Record<string, Plain>): Promise<boolean> {
  const named = Array.isArray(row.node_ids) ? row.node_ids : [];
  if (named.includes(null)) return true;
  const ids = named.filter((v): v is string => typeof v === 'string');
  if (ids.length === 0) return false;
  const found = await tx.one<{ missing: string[] }>('preflight/support/missing_nodes', { ids });
  return (found?.missing.length ?? 0) > 0;
}

/** The findings' one order (severity, check, node ids, relationship ids, message, then the whole finding). */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings
    .map((f) => [JSON.stringify(f), f] as const)
    .sort(([ka, a], [kb, b]) => compareFindings(a, b) || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([, f]) => f);
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function compareFindings(a: Finding, b: Finding): number {
  const keys: [string, string][] = [
    [String(RANK[a.severity]), String(RANK[b.severity])],
    [a.check, b.check],
    [a.node_ids.join(','), b.node_ids.join(',')],
    [a.relationship_ids.join(','), b.relationship_ids.join(',')],
    [a.message, b.message],
  ];
  for (const [x, y] of keys) if (x !== y) return x < y ? -1 : 1;
  return 0;
}

/** Validates one row of a check file and puts it in canonical form (sorted ids and evidence keys, no nulls). */
export function toFinding(checkName: string, row: Record<string, Plain>): Finding {
  const where = `cypher/preflight/${checkName}.cypher`;
  if (row.check !== checkName)
    throw new Error(
      `${where} returned check ${JSON.stringify(row.check)}; it must return its file name '${checkName}'`,
    );
  const severity = row.severity;
  if (typeof severity !== 'string' || !(SEVERITIES as readonly string[]).includes(severity)) {
    throw new Error(`${where} returned severity ${JSON.stringify(severity)}; expected one of ${SEVERITIES.join(', ')}`);
  }
  const effect = row.effect ?? 'introduces';
  if (typeof effect !== 'string' || !(EFFECTS as readonly string[]).includes(effect)) {
    throw new Error(`${where} returned effect ${JSON.stringify(effect)}; expected one of ${EFFECTS.join(', ')}`);
  }
  if (!hasMessage(row)) throw new Error(`${where} returned a row without a message`);
  const ids = (column: 'node_ids' | 'relationship_ids'): string[] => {
    const value = row[column] ?? [];
    if (!Array.isArray(value)) throw new Error(`${where} returned ${column} that is not a list`);
    return [...new Set(value.filter((v): v is string => typeof v === 'string'))].sort();
  };
  const evidence = row.evidence ?? {};
  if (typeof evidence !== 'object' || Array.isArray(evidence))
    throw new Error(`${where} returned evidence that is not a map`);
  const flat: Record<string, Plain> = {};
  for (const key of Object.keys(evidence).sort()) {
    const value = evidence[key];
    if (value !== null && value !== undefined) flat[key] = value;
  }
  const rule = flat.rule;
  // The published finding always says its rule (the sub-rule of the check).
  if (typeof rule !== 'string') throw new Error(`${where} returned evidence without its rule`);
  return {
    check: checkName,
    severity: severity as Severity,
    effect: effect as Effect,
    message: row.message,
    node_ids: ids('node_ids'),
    relationship_ids: ids('relationship_ids'),
    evidence: { ...flat, rule },
  };
}
