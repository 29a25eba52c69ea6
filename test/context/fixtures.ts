// Seeds for the context tests: a small entity graph written through one governed delta (so its
// nodes are committed exactly as the service writes them), memories and documents through the API.
import assert from 'node:assert/strict';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { writeGoverned } from '../../src/deltas/service.js';
import { tenantToken } from '../../src/db/tenant.js';
import { identityKey, normalizeName } from '../../src/entities/identity.js';
import type { Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';

export interface EntitySpec {
  key: string;
  name: string;
  type: string;
  description?: string;
}

/** Writes the entities and relationships ([from key, TYPE, to key]) in one applied delta; returns ids by key. */
export async function seedEntities(
  t: Tenant,
  entities: EntitySpec[],
  rels: [string, string, string][],
  apply = true,
): Promise<Record<string, string>> {
  const draft = new DeltaDraft('test', `${entities.length} entities`);
  const ids: Record<string, string> = {};
  for (const e of entities) {
    ids[e.key] = draft.createNode(
      ['Entity', e.type],
      {
        name: e.name,
        normalized_name: normalizeName(e.name),
        type: e.type,
        tenant: tenantToken(t.projectId),
        description: e.description ?? null,
      },
      { identityKey: identityKey(t.projectId, e.type, e.name) },
    );
  }
  for (const [from, type, to] of rels) draft.createRelationship(ids[from]!, type, ids[to]!);
  const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'seed' };
  const outcome = await writeGoverned(harness().service.deps.graph, draft, actor, apply);
  assert.equal(outcome.status, apply ? 'applied' : 'staged');
  return ids;
}

/**
 * Ada works for the Lovelace Foundation (in Far Away) and created the Analytical Engine, which
 * Babbage also created: Foundation and Engine are 1 hop from Ada, Far Away and Babbage 2 hops.
 */
export async function seedAdaGraph(t: Tenant): Promise<Record<string, string>> {
  return seedEntities(
    t,
    [
      { key: 'ada', name: 'Ada Lovelace', type: 'Person', description: 'Mathematician who wrote the first program.' },
      { key: 'foundation', name: 'Lovelace Foundation', type: 'Organization', description: 'Funds computing history.' },
      { key: 'place', name: 'Far Away', type: 'Place' },
      {
        key: 'engine',
        name: 'Analytical Engine',
        type: 'Product',
        description: 'A mechanical general-purpose computer.',
      },
      { key: 'babbage', name: 'Charles Babbage', type: 'Person', description: 'Designed the Analytical Engine.' },
    ],
    [
      ['ada', 'WORKS_FOR', 'foundation'],
      ['foundation', 'LOCATED_IN', 'place'],
      ['ada', 'CREATED', 'engine'],
      ['babbage', 'CREATED', 'engine'],
    ],
  );
}

export async function remember(
  t: Tenant,
  memories: Record<string, unknown>[],
  apply = true,
): Promise<{ ids: string[]; deltaId: string }> {
  const reply = await t.post('/v1/memories', { memories, apply });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return { ids: reply.body.memories.map((m: { id: string }) => m.id), deltaId: reply.body.delta_id };
}

/** All item ids of a pack, in pack order. */
export function packIds(pack: { sections: { items: { id: string }[] }[] }): (string | undefined)[] {
  return pack.sections.flatMap((s) => s.items.map((i) => i.id));
}

export function sectionIds(
  pack: { sections: { plane: string; items: { id: string }[] }[] },
  plane: string,
): (string | undefined)[] {
  return pack.sections.find((s) => s.plane === plane)?.items.map((i) => i.id) ?? [];
}

/** The body without request_id, serialised: what must be byte-identical between compiles. */
export function packBytes(body: Record<string, unknown>): string {
  const { request_id: _ignored, ...rest } = body;
  return JSON.stringify(rest);
}
