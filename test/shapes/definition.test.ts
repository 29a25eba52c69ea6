import assert from 'node:assert/strict';
import { checkDefinition } from '../../src/shapes/definition.js';
import { ApiError } from '../../src/errors/catalogue.js';
import { newTenant } from '../support/api.js';
import { crmDefinition } from './fixtures.js';

type Field = { field: string; reason: string };
const fieldsOf = (body: { error: { details: { fields: Field[] } } }) =>
  body.error.details.fields.map((f) => f.field).sort();

describe('shape definition validation', () => {
  it('names every malformed field by JSON pointer (labels, types, property names, enums, cardinality)', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/shapes', {
      name: 'Bad Name',
      entity_types: [
        { label: 'person', properties: [{ name: 'Name', type: 'text' }] },
        { label: 'Org_Unit', properties: [] },
      ],
      relationship_types: [{ type: 'worksFor', from: 'Person', to: 'Org', cardinality: 'lots' }],
      extra: true,
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'invalid_request');
    const fields = fieldsOf(reply.body);
    for (const f of [
      '/body/name',
      '/body/extra',
      '/body/entity_types/0/label',
      '/body/entity_types/0/properties/0/name',
      '/body/entity_types/0/properties/0/type',
      '/body/entity_types/1/label',
      '/body/entity_types/1/properties',
      '/body/relationship_types/0/type',
      '/body/relationship_types/0/cardinality',
    ])
      assert.ok(fields.includes(f), `${f} missing from ${fields.join(', ')}`);
  });

  it('checks rules across fields: duplicates, identity and required declared, enum on strings only, known ends', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/shapes', {
      name: 'crm',
      entity_types: [
        {
          label: 'Customer',
          identity: 'code',
          required: ['name', 'missing'],
          properties: [
            { name: 'name', type: 'string' },
            { name: 'seats', type: 'integer', enum: ['1'] },
            { name: 'name', type: 'string' },
          ],
        },
        { label: 'Customer', properties: [{ name: 'name', type: 'string' }] },
        {
          label: 'Deal',
          identity: 'amount',
          properties: [
            { name: 'amount', type: 'number' },
            { name: 'tenant', type: 'string' },
          ],
        },
        { label: 'Pending', properties: [{ name: 'name', type: 'string' }] },
      ],
      relationship_types: [
        { type: 'BUYS', from: 'Customer', to: 'Contract' },
        { type: 'BUYS', from: 'Customer', to: 'Contract' },
        { type: 'OWNS', from: 'Entity', to: 'Memory' },
        { type: 'HAS_CHANGE', from: 'Deal', to: 'Deal' },
      ],
      orphans_allowed: ['Deal', 'Ghost'],
    });
    assert.equal(reply.status, 400);
    const byField = new Map(reply.body.error.details.fields.map((f: Field) => [f.field, f.reason]));
    assert.match(String(byField.get('/body/entity_types/0/identity')), /code is not a declared property of Customer/);
    assert.match(String(byField.get('/body/entity_types/0/required/1')), /missing is not a declared property/);
    assert.match(String(byField.get('/body/entity_types/0/properties/1/enum')), /string properties only/);
    assert.match(
      String(byField.get('/body/entity_types/0/properties/2/name')),
      /duplicates \/body\/entity_types\/0\/properties\/0\/name/,
    );
    assert.match(String(byField.get('/body/entity_types/1/label')), /duplicates \/body\/entity_types\/0\/label/);
    assert.match(String(byField.get('/body/entity_types/2/identity')), /must be a string property/);
    assert.match(String(byField.get('/body/entity_types/2/properties/1/name')), /property the service sets/);
    assert.match(String(byField.get('/body/entity_types/3/label')), /label the service owns/);
    assert.match(String(byField.get('/body/relationship_types/0/to')), /Contract is not an entity type of this shape/);
    assert.match(String(byField.get('/body/relationship_types/1/type')), /duplicates \/body\/relationship_types\/0/);
    assert.match(String(byField.get('/body/relationship_types/3/type')), /relationship type the service owns/);
    assert.match(String(byField.get('/body/orphans_allowed/1')), /Ghost is not an entity type/);
    assert.equal(byField.has('/body/relationship_types/2/from'), false);
    assert.equal(byField.has('/body/relationship_types/2/to'), false);
    assert.equal(byField.has('/body/orphans_allowed/0'), false);
    // Nothing was written.
    assert.equal((await t.get('/v1/shapes?name=crm')).body.shapes.length, 0);
  });

  it('a new version is validated the same way', async () => {
    const t = await newTenant(0);
    const v1 = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    const bad = crmDefinition();
    bad.entity_types[0]!.required = ['nope'];
    const reply = await t.post(`/v1/shapes/${v1.body.id}/versions`, bad);
    assert.equal(reply.status, 400);
    assert.deepEqual(fieldsOf(reply.body), ['/body/entity_types/0/required/0']);
    const named = await t.post(`/v1/shapes/${v1.body.id}/versions`, { name: 'other', ...crmDefinition() });
    assert.deepEqual(fieldsOf(named.body), ['/body/name']);
  });

  it('entity_types is required and must not be empty', async () => {
    const t = await newTenant(0);
    assert.deepEqual(fieldsOf((await t.post('/v1/shapes', { name: 'x' })).body), ['/body/entity_types']);
    assert.deepEqual(fieldsOf((await t.post('/v1/shapes', { name: 'x', entity_types: [] })).body), [
      '/body/entity_types',
    ]);
  });

  it('a definition introducing more than 200 relationship type names is a 400 naming relationship_types (names are database-wide)', () => {
    const input = {
      entity_types: [{ label: 'Thing', properties: [{ name: 'name', type: 'string' as const }] }],
      relationship_types: Array.from({ length: 201 }, (_, i) => ({
        type: `LINK_${i}`,
        from: 'Thing',
        to: 'Thing',
        cardinality: 'many_to_many' as const,
      })),
    };
    assert.throws(
      () => checkDefinition(input, '/body/proposal'),
      (e: unknown) =>
        e instanceof ApiError &&
        JSON.stringify(e.details).includes('/body/proposal/relationship_types') &&
        /at most 200/.test(e.message),
    );
    assert.doesNotThrow(() =>
      checkDefinition({ ...input, relationship_types: input.relationship_types.slice(0, 200) }),
    );
  });
});
