import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { crmDefinition, GENERAL_SHAPE_ID } from './fixtures.js';

describe('GET /v1/ontology', () => {
  it('lists the types of the built-in shapes with the shapes that define them', async () => {
    const t = await newTenant(0);
    const reply = await t.get('/v1/ontology');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.project_id, t.projectId);
    assert.deepEqual(reply.body.shapes.map((s: { name: string }) => s.name).sort(), ['general', 'memory']);
    const labels = reply.body.entity_types.map((e: { label: string }) => e.label);
    assert.deepEqual(labels, ['Concept', 'Event', 'Memory', 'Organization', 'Person', 'Place', 'Product']);
    const person = reply.body.entity_types.find((e: { label: string }) => e.label === 'Person');
    assert.equal(person.identity, 'name');
    assert.deepEqual(person.required, ['name']);
    assert.deepEqual(person.shapes, [{ id: GENERAL_SHAPE_ID, name: 'general', version: 1, builtin: true }]);
    const event = reply.body.entity_types.find((e: { label: string }) => e.label === 'Event');
    assert.deepEqual(
      event.properties.find((p: { name: string }) => p.name === 'date'),
      { name: 'date', type: 'date', description: 'When it took place (start).' },
    );
    const located = reply.body.relationship_types.find((r: { type: string }) => r.type === 'LOCATED_IN');
    assert.deepEqual([located.from, located.to, located.cardinality], ['Organization', 'Place', 'many_to_one']);
    assert.ok(
      reply.body.relationship_types.some(
        (r: { type: string; to: string }) => r.type === 'HAS_SUBJECT' && r.to === 'Entity',
      ),
    );
  });

  it("adds the project's latest published shapes, merging a label several shapes define, and drops retired ones", async () => {
    const t = await newTenant(0);
    const def = crmDefinition();
    def.entity_types.push({
      label: 'Person',
      properties: [
        { name: 'name', type: 'string' },
        { name: 'linkedin', type: 'string' },
      ],
    } as never);
    const v1 = await t.post('/v1/shapes', { name: 'crm', ...def });
    const v2 = await t.post(`/v1/shapes/${v1.body.id}/versions`, def);
    const reply = await t.get('/v1/ontology');
    assert.deepEqual(reply.body.shapes.map((s: { name: string; version: number }) => `${s.name}@${s.version}`).sort(), [
      'crm@2',
      'general@1',
      'memory@1',
    ]);
    const person = reply.body.entity_types.find((e: { label: string }) => e.label === 'Person');
    assert.deepEqual(
      person.shapes.map((s: { name: string }) => s.name),
      ['crm', 'general'],
    );
    assert.deepEqual(
      person.properties.map((p: { name: string }) => p.name),
      ['name', 'linkedin', 'role', 'email', 'description'],
    );
    const customer = reply.body.entity_types.find((e: { label: string }) => e.label === 'Customer');
    assert.deepEqual(customer.shapes, [{ id: v2.body.id, name: 'crm', version: 2, builtin: false }]);
    await t.post(`/v1/shapes/${v2.body.id}/retire`, {});
    const after = await t.get('/v1/ontology');
    assert.ok(!after.body.entity_types.some((e: { label: string }) => e.label === 'Customer'));
  });
});
