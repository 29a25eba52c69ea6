// Findings say what the delta does to the condition they report (docs/preflight.md): introduces,
// worsens or merely touches a condition that held before it; only the first two count.
import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { audit, type FindingBody } from './support.js';

const gadget = (extra: { name: string; type: string }) => ({
  label: 'Gadget',
  properties: [{ name: 'name', type: 'string' }, extra],
});

async function shape(
  t: Tenant,
  name: string,
  entityTypes: unknown[],
  apply = true,
): Promise<{ id: string; delta_id: string }> {
  const reply = await t.post('/v1/shapes', { name, entity_types: entityTypes, orphans_allowed: ['Gadget'], apply });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return { id: reply.body.id, delta_id: reply.body.delta_id };
}

async function version(t: Tenant, id: string, entityTypes: unknown[]): Promise<string> {
  const reply = await t.post(`/v1/shapes/${id}/versions`, {
    entity_types: entityTypes,
    orphans_allowed: ['Gadget'],
    apply: false,
  });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return String(reply.body.delta_id);
}

async function verdictOf(
  t: Tenant,
  deltaId: string,
): Promise<{ disposition: string; degrades: boolean; conflicts: FindingBody[] }> {
  const reply = await audit(t, deltaId);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  for (const f of reply.body.findings as FindingBody[])
    assert.ok(['introduces', 'worsens', 'touches'].includes(String((f as unknown as { effect: string }).effect)));
  return {
    disposition: reply.body.disposition,
    degrades: reply.body.delta.degrades,
    conflicts: (reply.body.findings as FindingBody[]).filter((f) => f.check === 'shape_label_conflicts'),
  };
}

const effects = (findings: FindingBody[]) => findings.map((f) => (f as unknown as { effect: string }).effect);

describe('preflight findings: introduces, worsens, touches', function () {
  this.timeout(120_000);

  it('a pre-existing label conflict does not make an unrelated shape version ReviewRequired', async () => {
    const t = await newTenant(0);
    // Two committed shapes already define Gadget differently (written at once, so never audited).
    const a = await shape(t, 'catalog-a', [gadget({ name: 'color', type: 'string' })]);
    await shape(t, 'catalog-b', [gadget({ name: 'weight', type: 'number' })]);
    // A new version of catalog-a that keeps its Gadget and adds an unrelated type.
    const unrelated = await version(t, a.id, [
      gadget({ name: 'color', type: 'string' }),
      { label: 'Widget', properties: [{ name: 'name', type: 'string' }] },
    ]);
    const v = await verdictOf(t, unrelated);
    assert.deepEqual(effects(v.conflicts), ['touches'], JSON.stringify(v.conflicts));
    assert.equal(v.disposition, 'SafeToAct');
    assert.equal(v.degrades, false);
    assert.match(v.conflicts[0]!.message, /previous version already defined it so/);
  });

  it('a version giving the conflicting label yet another meaning worsens it, and a new shape introduces one: both ReviewRequired', async () => {
    const t = await newTenant(0);
    const a = await shape(t, 'catalog-a', [gadget({ name: 'color', type: 'string' })]);
    await shape(t, 'catalog-b', [gadget({ name: 'weight', type: 'number' })]);
    const worse = await version(t, a.id, [gadget({ name: 'size', type: 'string' })]);
    const w = await verdictOf(t, worse);
    assert.deepEqual(effects(w.conflicts), ['worsens'], JSON.stringify(w.conflicts));
    assert.equal(w.disposition, 'ReviewRequired');
    assert.equal(w.degrades, true);
    const fresh = await shape(t, 'catalog-c', [gadget({ name: 'price', type: 'number' })], false);
    const f = await verdictOf(t, fresh.delta_id);
    assert.deepEqual(effects(f.conflicts), ['introduces', 'introduces'], JSON.stringify(f.conflicts));
    assert.equal(f.disposition, 'ReviewRequired');
  });

  it('a version that only adds an optional property is charged with neither the label conflict nor the relationship collision it found', async () => {
    const t = await newTenant(0);
    const fits = (cardinality: string) => [{ type: 'FITS', from: 'Gadget', to: 'Gadget', cardinality }];
    const a = await t.post('/v1/shapes', {
      name: 'catalog-a',
      entity_types: [gadget({ name: 'color', type: 'string' })],
      relationship_types: fits('many_to_many'),
      orphans_allowed: ['Gadget'],
    });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const b = await t.post('/v1/shapes', {
      name: 'catalog-b',
      entity_types: [gadget({ name: 'weight', type: 'number' })],
      relationship_types: fits('many_to_one'),
      orphans_allowed: ['Gadget'],
    });
    assert.equal(b.status, 201, JSON.stringify(b.body));
    const added = await t.post(`/v1/shapes/${a.body.id}/versions`, {
      entity_types: [
        {
          label: 'Gadget',
          properties: [
            { name: 'name', type: 'string' },
            { name: 'color', type: 'string' },
            { name: 'note', type: 'string' },
          ],
        },
      ],
      relationship_types: fits('many_to_many'),
      orphans_allowed: ['Gadget'],
      apply: false,
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const reply = await audit(t, String(added.body.delta_id));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const findings = reply.body.findings as (FindingBody & { effect: string })[];
    const charged = (check: string) => findings.filter((f) => f.check === check).map((f) => f.effect);
    assert.deepEqual(charged('shape_label_conflicts'), ['touches'], JSON.stringify(findings));
    assert.deepEqual(charged('shape_relationship_collisions'), ['touches'], JSON.stringify(findings));
    assert.equal(reply.body.disposition, 'SafeToAct', JSON.stringify(findings));
    // Adding a property the other shape types otherwise does give the label another meaning.
    assert.equal((await t.post(`/v1/deltas/${added.body.delta_id}/reject`, { reason: 'next try' })).status, 200);
    const clash = await version(t, String(a.body.id), [
      {
        label: 'Gadget',
        properties: [
          { name: 'name', type: 'string' },
          { name: 'color', type: 'string' },
          { name: 'weight', type: 'string' },
        ],
      },
    ]);
    assert.deepEqual(effects((await verdictOf(t, clash)).conflicts), ['worsens']);
  });

  it('a version that resolves the conflict (aligns the definitions) has no conflict finding at all', async () => {
    const t = await newTenant(0);
    const a = await shape(t, 'catalog-a', [gadget({ name: 'color', type: 'string' })]);
    await shape(t, 'catalog-b', [gadget({ name: 'weight', type: 'number' })]);
    const aligned = await version(t, a.id, [gadget({ name: 'weight', type: 'number' })]);
    const v = await verdictOf(t, aligned);
    assert.deepEqual(v.conflicts, []);
    assert.equal(v.disposition, 'SafeToAct');
  });
});
