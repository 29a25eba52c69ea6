// Builds small knowledge graphs for the graph and search tests through the governed write path:
// entities as :Entity:<Label> nodes with the tenant token, relationships between them, applied or
// left staged.
import { DeltaDraft } from '../../src/deltas/draft.js';
import { writeGoverned, type Actor } from '../../src/deltas/service.js';
import { identityKey, normalizeName } from '../../src/entities/identity.js';
import { tenantToken } from '../../src/db/tenant.js';
import type { PropValue } from '../../src/deltas/props.js';
import type { Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';

export interface EntitySpec {
  key: string;
  label: string;
  name: string;
  props?: Record<string, PropValue>;
}

export interface BuiltGraph {
  ids: Record<string, string>;
  deltaId: string;
}

/** Stages entities and relationships ([fromKey, TYPE, toKey]) in one delta; applies it unless apply is false. */
export async function buildGraph(
  t: Tenant,
  entities: EntitySpec[],
  rels: [string, string, string][] = [],
  apply = true,
  existing: Record<string, string> = {},
): Promise<BuiltGraph> {
  const actor: Actor = {
    projectId: t.projectId,
    organizationId: t.organizationId,
    keyId: t.keyId,
    requestId: `test-${Date.now()}`,
  };
  const draft = new DeltaDraft('test', 'graph fixture');
  const ids: Record<string, string> = { ...existing };
  for (const e of entities) {
    ids[e.key] = draft.createNode(
      ['Entity', e.label],
      {
        name: e.name,
        normalized_name: normalizeName(e.name),
        type: e.label,
        tenant: tenantToken(t.projectId),
        ...(e.props ?? {}),
      },
      { identityKey: identityKey(t.projectId, e.label, e.name) },
    );
  }
  for (const [from, type, to] of rels) draft.createRelationship(ids[from]!, type, ids[to]!, { since: 2020 });
  const outcome = await writeGoverned(harness().service.deps.graph, draft, actor, apply);
  if (outcome.status === 'failed') throw outcome.error;
  return { ids, deltaId: outcome.deltaId };
}

/** Ada works for Acme, which is located in London; Grace works for Acme too; Babbage stands alone. */
export async function acmeGraph(t: Tenant): Promise<BuiltGraph> {
  return buildGraph(
    t,
    [
      { key: 'ada', label: 'Person', name: 'Ada Lovelace', props: { role: 'Analyst', tags: ['math', 'poetry'] } },
      { key: 'grace', label: 'Person', name: 'Grace Hopper', props: { role: 'Admiral' } },
      { key: 'babbage', label: 'Person', name: 'Charles Babbage' },
      { key: 'acme', label: 'Organization', name: 'Acme Engines', props: { founded_year: 1842 } },
      { key: 'london', label: 'Place', name: 'London' },
    ],
    [
      ['ada', 'WORKS_FOR', 'acme'],
      ['grace', 'WORKS_FOR', 'acme'],
      ['acme', 'LOCATED_IN', 'london'],
    ],
  );
}
