import assert from 'node:assert/strict';
import { compileShape, entitySchema, loadShape } from '../../src/shapes/validate.js';
import type { ShapeDef } from '../../src/shapes/types.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { crmDefinition, GENERAL_SHAPE_ID, MEMORY_SHAPE_ID } from './fixtures.js';

const graph = () => harness().service.deps.graph;

describe('instance validation against a shape (ajv)', () => {
  it('loads the built-in general shape and validates Person, Organization and Event instances', async () => {
    const t = await newTenant(0);
    const general = await loadShape(graph(), GENERAL_SHAPE_ID, t.projectId);
    assert.ok(general);
    assert.deepEqual(
      general.entity_types.map((e) => e.label),
      ['Person', 'Organization', 'Place', 'Product', 'Event', 'Concept'],
    );
    assert.deepEqual(general.orphans_allowed, ['Concept', 'Place']);
    const works = general.relationship_types.find((r) => r.type === 'WORKS_FOR');
    assert.deepEqual(works, {
      type: 'WORKS_FOR',
      from: 'Person',
      to: 'Organization',
      cardinality: 'many_to_many',
      description: 'A person works or worked for an organization (one employer at a time).',
      patterns: ['works for', 'employed by', 'joined'],
      temporal: 'single_valued_at_a_time',
    });
    const shape = compileShape(general);
    assert.deepEqual(shape.validateEntity('Person', { name: 'Ada Lovelace', role: 'Analyst' }), []);
    assert.deepEqual(shape.validateEntity('Person', { role: 'Analyst' }), [{ field: '/name', reason: 'is required' }]);
    assert.deepEqual(shape.validateEntity('Organization', { name: 'Acme', founded_year: 1999.5 }), [
      { field: '/founded_year', reason: 'must be integer' },
    ]);
    assert.deepEqual(shape.validateEntity('Event', { name: 'Launch', date: '2024-13-45' }), [
      { field: '/date', reason: 'must match format "date"' },
    ]);
    assert.deepEqual(shape.validateEntity('Event', { name: 'Launch', date: { date: '2024-03-05' } }), []);
    assert.deepEqual(shape.validateEntity('Place', { name: 'Paris', kind: 'planet' }), [
      { field: '/kind', reason: 'must be one of city, region, country, address, site, other' },
    ]);
    assert.deepEqual(shape.validateEntity('Person', { name: 'Ada', shoe_size: 38 }), [
      { field: '/shoe_size', reason: 'is not a property of Person' },
    ]);
    // Properties the engine sets are not the shape's business.
    assert.deepEqual(
      shape.validateEntity('Person', {
        name: 'Ada',
        normalized_name: 'ada',
        type: 'Person',
        shape_id: GENERAL_SHAPE_ID,
        tenant: 'pxz',
      }),
      [],
    );
    assert.deepEqual(shape.validateEntity('Spaceship', { name: 'x' }), [
      { field: '', reason: 'Spaceship is not an entity type of shape general (v1)' },
    ]);
    assert.equal(shape.relationshipAllowed('WORKS_FOR', 'Person', 'Organization'), true);
    assert.equal(shape.relationshipAllowed('WORKS_FOR', 'Organization', 'Person'), false);
    assert.equal(shape.relationshipAllowed('PART_OF', 'Concept', 'Concept'), true);
    assert.equal(shape.relationshipAllowed('OWNS', 'Person', 'Product'), false);
  });

  it('the memory shape allows HAS_SUBJECT from Memory to any entity but not to a memory', async () => {
    const t = await newTenant(0);
    const memory = compileShape((await loadShape(graph(), MEMORY_SHAPE_ID, t.projectId))!);
    assert.equal(memory.relationshipAllowed('HAS_SUBJECT', 'Memory', 'Person'), true);
    assert.equal(memory.relationshipAllowed('HAS_OBJECT', 'Memory', 'Concept'), true);
    assert.equal(memory.relationshipAllowed('HAS_SUBJECT', 'Memory', 'Memory'), false);
    assert.equal(memory.relationshipAllowed('HAS_SUBJECT', 'Person', 'Concept'), false);
    assert.deepEqual(memory.validateEntity('Memory', { content: 'x', kind: 'rumour' }), [
      { field: '/kind', reason: 'must be one of preference, decision, fact, lesson, observation, signal' },
    ]);
    assert.deepEqual(
      memory.validateEntity('Memory', { content: 'x', kind: 'fact', forget_after: new Date('2030-01-01T00:00:00Z') }),
      [],
    );
    assert.deepEqual(memory.validateEntity('Memory', { content: 'x', kind: 'fact', forget_after: 'tomorrow' }), [
      { field: '/forget_after', reason: 'must match format "date-time"' },
    ]);
  });

  it('loadShape reads only committed shapes of the project (inside a transaction too)', async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const applied = await a.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    const staged = await a.post('/v1/shapes', { name: 'leads', apply: false, ...crmDefinition() });
    const crm = await graph().read((tx) => loadShape(tx, applied.body.id, a.projectId));
    assert.equal(crm?.name, 'crm');
    assert.equal(await loadShape(graph(), staged.body.id, a.projectId), null);
    assert.equal(await loadShape(graph(), applied.body.id, b.projectId), null);
    const compiled = compileShape(crm!);
    assert.deepEqual(compiled.validateEntity('Customer', { name: 'Acme', tier: 'gold', seats: 3 }), []);
    assert.deepEqual(
      compiled.validateEntity('Customer', { name: 'Acme', seats: '3' }).sort((x, y) => x.field.localeCompare(y.field)),
      [
        { field: '/seats', reason: 'must be integer' },
        { field: '/tier', reason: 'is required' },
      ],
    );
    assert.equal(compiled.relationshipAllowed('MENTIONS', 'Memory', 'Deal'), true);
    assert.deepEqual(
      compiled.relationshipTypes('BUYS', 'Customer', 'Deal').map((r) => r.cardinality),
      ['one_to_many'],
    );
  });

  it('entitySchema is plain JSON Schema: types, enums and required of the entity type', () => {
    const shape: ShapeDef = {
      id: 's',
      name: 's',
      version: 1,
      entity_types: [
        {
          label: 'Book',
          identity: 'title',
          required: ['title'],
          properties: [
            { name: 'title', type: 'string' },
            { name: 'pages', type: 'integer' },
            { name: 'format', type: 'string', enum: ['paper', 'ebook'] },
            { name: 'published', type: 'datetime' },
            { name: 'in_print', type: 'boolean' },
          ],
        },
      ],
      relationship_types: [],
    };
    const schema = entitySchema(shape.entity_types[0]!) as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    assert.deepEqual(schema.required, ['title']);
    assert.deepEqual(schema.properties.pages, { type: 'integer' });
    assert.deepEqual(schema.properties.format, { type: 'string', enum: ['paper', 'ebook'] });
    assert.deepEqual(schema.properties.published, { type: 'string', format: 'date-time' });
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(compileShape(shape).validateEntity('Book', { title: 'Dune', in_print: 'yes' }), [
      { field: '/in_print', reason: 'must be boolean' },
    ]);
  });
});
