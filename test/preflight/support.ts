// Builds graphs for the preflight tests through the governed write path: a project shape staged and
// applied as a delta (per the shared shape model), entities and relationships through DeltaDraft and
// writeGoverned, memories through the API. Audits go through POST /v1/preflight/audit.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { stageChanges, writeGoverned, type Actor } from '../../src/deltas/service.js';
import { identityKey, normalizeName } from '../../src/entities/identity.js';
import { tenantToken } from '../../src/db/tenant.js';
import type { PropValue } from '../../src/deltas/props.js';
import type { Tenant, Reply } from '../support/api.js';
import { harness } from '../support/harness.js';

export const graph = () => harness().service.deps.graph;

export const actorOf = (t: Tenant): Actor => ({
  projectId: t.projectId,
  organizationId: t.organizationId,
  keyId: t.keyId,
  requestId: `test-${crypto.randomUUID()}`,
});

/**
 * A project shape for the tests: Person (name required, age integer, role enum), Team, Part; Person
 * MEMBER_OF Team many_to_one, LEADS Team one_to_one, KNOWS Person many_to_many, Part WITHIN Part
 * many_to_one (hierarchical by definition), PART_OF Part many_to_many; only Team may be unconnected.
 */
export async function createTestShape(t: Tenant): Promise<string> {
  const draft = new DeltaDraft('shape', 'preflight test shape');
  const shapeId = draft.createNode(['Shape'], {
    name: 'org-chart',
    version: 1,
    status: 'published',
    description: 'test shape',
    schema_tag: 'test.org/v1',
    orphans_allowed: ['Team'],
  });
  const types: { label: string; required: string[]; props: { name: string; type: string; enum?: string[] }[] }[] = [
    {
      label: 'Person',
      required: ['name'],
      props: [
        { name: 'name', type: 'string' },
        { name: 'age', type: 'integer' },
        { name: 'role', type: 'string', enum: ['engineer', 'manager'] },
        { name: 'born', type: 'date' },
      ],
    },
    { label: 'Team', required: ['name'], props: [{ name: 'name', type: 'string' }] },
    { label: 'Part', required: ['name'], props: [{ name: 'name', type: 'string' }] },
  ];
  for (const type of types) {
    const typeId = draft.createNode(['EntityType'], {
      shape_id: shapeId,
      label: type.label,
      identity: 'name',
      required: type.required,
      description: type.label,
    });
    draft.createRelationship(shapeId, 'DEFINES', typeId);
    for (const p of type.props) {
      const propId = draft.createNode(['PropertyDef'], {
        shape_id: shapeId,
        entity_label: type.label,
        name: p.name,
        type: p.type,
        enum: p.enum ?? null,
      });
      draft.createRelationship(typeId, 'HAS_PROPERTY', propId);
    }
  }
  const rels = [
    { type: 'MEMBER_OF', from: 'Person', to: 'Team', cardinality: 'many_to_one' },
    { type: 'LEADS', from: 'Person', to: 'Team', cardinality: 'one_to_one' },
    { type: 'KNOWS', from: 'Person', to: 'Person', cardinality: 'many_to_many' },
    { type: 'WITHIN', from: 'Part', to: 'Part', cardinality: 'many_to_one' },
    { type: 'PART_OF', from: 'Part', to: 'Part', cardinality: 'many_to_many' },
  ];
  for (const r of rels)
    draft.createRelationship(
      shapeId,
      'DEFINES',
      draft.createNode(['RelationshipType'], { shape_id: shapeId, ...r, patterns: [] }),
    );
  const outcome = await writeGoverned(graph(), draft, actorOf(t), true);
  assert.equal(outcome.status, 'applied');
  return shapeId;
}

/** Stages an entity of a shape into a draft, as loops do (labels Entity + label, identity key). */
export function entity(
  draft: DeltaDraft,
  t: Tenant,
  shapeId: string,
  label: string,
  name: string | null,
  extra: Record<string, PropValue> = {},
): string {
  const props: Record<string, PropValue> = {
    type: label,
    shape_id: shapeId,
    tenant: tenantToken(t.projectId),
    ...extra,
  };
  if (name !== null) Object.assign(props, { name, normalized_name: normalizeName(name) });
  return draft.createNode(
    ['Entity', label],
    props,
    name !== null ? { identityKey: identityKey(t.projectId, label, name) } : {},
  );
}

/** Stages (apply false) or commits (apply true) what build puts in a draft; returns the delta id. */
export async function write(t: Tenant, apply: boolean, build: (draft: DeltaDraft) => void): Promise<string> {
  const draft = new DeltaDraft('test', 'preflight test');
  build(draft);
  const outcome = await writeGoverned(graph(), draft, actorOf(t), apply);
  assert.equal(outcome.status, apply ? 'applied' : 'staged', outcome.error?.message);
  return outcome.deltaId;
}

export const commit = (t: Tenant, build: (draft: DeltaDraft) => void) => write(t, true, build);
export const stage = (t: Tenant, build: (draft: DeltaDraft) => void) => write(t, false, build);

/** Adds more changes to a staged delta (e.g. a SUPERSEDES link beside a memory staged through the API). */
export async function addToDelta(t: Tenant, deltaId: string, build: (draft: DeltaDraft) => void): Promise<void> {
  const draft = new DeltaDraft('test', 'more');
  build(draft);
  await graph().write((tx) => stageChanges(tx, draft, deltaId, t.projectId, new Date().toISOString()));
}

export interface FindingBody {
  check: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  node_ids: string[];
  relationship_ids: string[];
  evidence: Record<string, unknown>;
}

export async function audit(t: Tenant, deltaId: string, headers: Record<string, string> = {}): Promise<Reply> {
  return t.post('/v1/preflight/audit', { delta_id: deltaId }, { headers });
}

/** The findings of one check in an audit that must succeed. */
export async function findingsOf(t: Tenant, deltaId: string, check: string): Promise<FindingBody[]> {
  const reply = await audit(t, deltaId);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return (reply.body.findings as FindingBody[]).filter((f) => f.check === check);
}

export const rules = (findings: FindingBody[]): string[] => findings.map((f) => String(f.evidence.rule)).sort();

/** Nodes and relationships of the project, pending or not, with the delta records: what an audit must leave alone. */
export async function snapshot(projectId: string): Promise<Record<string, unknown>> {
  const [row] = await graph().read((tx) =>
    tx.runText(
      `MATCH (n {project_id: $p})
       OPTIONAL MATCH (n)-[r]-()
       WITH count(DISTINCT n) AS nodes, count(DISTINCT r) AS rels, collect(DISTINCT n) AS all
       RETURN nodes, rels,
              [x IN all WHERE x:Delta | [x.id, x.status, toString(x.updated_at), x.lock_token]] AS deltas,
              size([x IN all WHERE x:Pending]) AS pending`,
      { p: projectId },
    ),
  );
  return { ...row, deltas: [...((row?.deltas ?? []) as unknown[])].map(String).sort() };
}

/** The operators of a freshly made plan of `text` (replan=force: today's statistics, not a cached plan). */
export async function planOperators(text: string, params: Record<string, unknown>): Promise<string[]> {
  const session = graph().driver.session({ database: graph().database });
  try {
    const result = await session.executeRead((tx) => tx.run(`CYPHER replan=force EXPLAIN ${text}`, params));
    const out: string[] = [];
    const walk = (plan: { operatorType: string; children?: unknown[] }) => {
      out.push(plan.operatorType);
      for (const child of plan.children ?? []) walk(child as typeof plan);
    };
    walk(result.summary.plan as unknown as { operatorType: string; children?: unknown[] });
    return out;
  } finally {
    await session.close();
  }
}
