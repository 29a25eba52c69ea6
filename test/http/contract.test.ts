import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { allRoutes } from '../../src/routes.js';

type Operation = {
  parameters: { name: string; in: string; schema: Record<string, unknown> }[];
  responses: Record<string, { description: string; content: Record<string, { schema: Record<string, unknown> }> }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
};

async function document(): Promise<{ paths: Record<string, Record<string, Operation>> }> {
  return (await call('GET', '/v1/openapi.json')).body;
}

describe('Published contract', () => {
  it('lists for every operation each status the shared layers can answer', async () => {
    const doc = await document();
    for (const route of allRoutes(harness().service.deps)) {
      const op = doc.paths[route.path.replace(/:([A-Za-z_]+)/g, '{$1}')]![route.method]!;
      const statuses = Object.keys(op.responses);
      const name = `${route.method.toUpperCase()} ${route.path}`;
      if (route.auth !== false)
        for (const s of ['401', '403', '429', '503']) assert.ok(statuses.includes(s), `${name} lacks ${s}`);
      if (route.method !== 'get')
        for (const s of ['400', '413', '415']) assert.ok(statuses.includes(s), `${name} lacks ${s}`);
      if (route.path.includes('/:') && route.auth !== false) assert.ok(statuses.includes('404'), `${name} lacks 404`);
      if (route.idempotent) {
        assert.match(
          op.responses['409']!.description,
          /idempotency_conflict/,
          `${name} 409 does not name idempotency_conflict`,
        );
        const header = op.parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
        assert.equal(header?.schema.pattern, '^[!-~]{1,255}$', `${name} Idempotency-Key pattern`);
      }
    }
  });

  it('publishes a failed governed write as the 409 body, beside the error envelope', async () => {
    const schema = (await document()).paths['/v1/memories']!.post!.responses['409']!.content['application/json']!
      .schema as { oneOf: Record<string, unknown>[] };
    assert.equal(schema.oneOf.length, 2);
    const failed = schema.oneOf[0] as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(failed.properties.status, { const: 'failed' });
    assert.deepEqual(failed.properties.id, { type: 'null' });
    assert.ok(failed.required.includes('error') && failed.required.includes('delta_id'));
    assert.deepEqual(schema.oneOf[1], { $ref: '#/components/schemas/Error' });
  });

  it('publishes cursors, content-xor-memories and plane filters as the service enforces them', async () => {
    const doc = await document();
    const cursor = doc.paths['/v1/deltas']!.get!.parameters.find((p) => p.name === 'cursor')!;
    assert.equal(cursor.schema.pattern, '^[A-Za-z0-9_-]+$');
    const memoryBody = doc.paths['/v1/memories']!.post!.requestBody!.content['application/json']!.schema;
    assert.deepEqual(memoryBody.oneOf, [{ required: ['content'] }, { required: ['memories'] }]);
    const searchBody = doc.paths['/v1/search']!.post!.requestBody!.content['application/json']!.schema as {
      allOf: unknown[];
    };
    assert.equal(searchBody.allOf.length, 3);
    // Slice definitions (saved and inline) publish the same rule for filters and budget sections.
    const bodies = [
      doc.paths['/v1/slices']!.post!.requestBody!.content['application/json']!.schema,
      doc.paths['/v1/slices/{id}/versions']!.post!.requestBody!.content['application/json']!.schema,
      (
        doc.paths['/v1/context/compile']!.post!.requestBody!.content['application/json']!.schema as {
          properties: Record<string, unknown>;
        }
      ).properties.slice,
    ] as { allOf: { then: { properties: { budget: unknown } } }[] }[];
    for (const body of bodies) {
      assert.equal(body.allOf.length, 3);
      assert.ok(body.allOf[0]!.then.properties.budget, 'budget sections are named by the rule');
    }
  });

  it('the published rules answer 400 naming the field, as the handlers did', async () => {
    const t = await newTenant(0);
    const both = await t.post('/v1/memories', { content: 'one', memories: [{ content: 'two' }] });
    assert.equal(both.status, 400);
    assert.deepEqual(both.body.error.details.fields, [
      { field: '/body/content', reason: 'must be omitted when memories is given' },
    ]);
    const stray = await t.post('/v1/memories', { memories: [{ content: 'two' }], kind: 'fact' });
    assert.deepEqual(stray.body.error.details.fields, [
      { field: '/body/kind', reason: 'must be inside each item of memories' },
    ]);
    const neither = await t.post('/v1/memories', { kind: 'fact' });
    assert.deepEqual(
      neither.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/body/content', '/body/memories'],
    );
    const filter = await t.post('/v1/search', {
      query: 'x',
      planes: ['memory'],
      filters: { document: { tags: ['a'] } },
    });
    assert.deepEqual(filter.body.error.details.fields, [
      { field: '/body/filters/document', reason: 'applies only when planes includes document' },
    ]);
    const slice = await t.post('/v1/slices', {
      name: 'entities-only',
      planes: ['entity'],
      filters: { memory: { kinds: ['fact'] } },
      budget: { sections: { document: 0.5 } },
    });
    assert.equal(slice.status, 400);
    assert.deepEqual(slice.body.error.details.fields, [
      { field: '/body/filters/memory', reason: 'applies only when planes includes memory' },
      { field: '/body/budget/sections/document', reason: 'applies only when planes includes document' },
    ]);
    const inline = await t.post('/v1/context/compile', { slice: { planes: ['memory'], filters: { entity: {} } } });
    assert.deepEqual(inline.body.error.details.fields, [
      { field: '/body/slice/filters/entity', reason: 'applies only when planes includes entity' },
    ]);
    const cursor = await t.get('/v1/deltas?cursor=not%20base64!');
    assert.equal(cursor.body.error.details.fields[0].field, '/query/cursor');
    // Well-formed cursors this service never issued: every sort key is checked, not passed to Cypher.
    const forged = (key: Record<string, unknown>) => Buffer.from(JSON.stringify(key)).toString('base64url');
    for (const path of ['/v1/deltas', '/v1/bridges', '/v1/documents', '/v1/context/packs']) {
      for (const key of [
        { c: 'yesterday', i: 'x' },
        { c: '2026-13-45T99:00:00.000Z', i: 'x' },
        { c: 1, i: 'x' },
      ]) {
        const reply = await t.get(`${path}?cursor=${forged(key)}`);
        assert.equal(reply.status, 400, `${path} ${JSON.stringify(key)}: ${JSON.stringify(reply.body)}`);
        assert.equal(reply.body.error.details.fields[0].field, '/query/cursor');
      }
    }
    for (const path of ['/v1/slices', '/v1/shapes']) {
      const reply = await t.get(`${path}?cursor=${forged({ n: 'a', v: 'one', i: 'x' })}`);
      assert.equal(reply.status, 400, `${path}: ${JSON.stringify(reply.body)}`);
    }
    for (const value of ['has space', '']) {
      const key = await t.post('/v1/memories', { content: 'x' }, { headers: { 'Idempotency-Key': value } });
      assert.equal(key.status, 400, `Idempotency-Key "${value}"`);
      assert.equal(key.body.error.details.fields[0].field, '/headers/idempotency-key');
    }
  });

  it('shape definitions: engine-owned names and enums on non-strings are published, and answered with every other problem at once', async () => {
    const doc = await document();
    const published = JSON.stringify(doc.paths['/v1/shapes']!.post!.requestBody!.content['application/json']!.schema);
    for (const rule of [
      '"is a label the service owns"',
      '"is a property the service sets"',
      '"is a relationship type the service owns"',
      'enum is allowed on string properties only',
    ]) {
      assert.ok(published.includes(rule), rule);
    }
    const t = await newTenant(0);
    const reply = await t.post('/v1/shapes', {
      name: 'owned',
      entity_types: [
        {
          label: 'Delta',
          identity: 'code',
          properties: [
            { name: 'name', type: 'string' },
            { name: 'project_id', type: 'string' },
            { name: 'size', type: 'integer', enum: ['1'] },
          ],
        },
      ],
      relationship_types: [{ type: 'HAS_CHANGE', from: 'Entity', to: 'Entity' }],
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body.error.details.fields.map((f: { field: string }) => f.field).sort(), [
      '/body/entity_types/0/identity',
      '/body/entity_types/0/label',
      '/body/entity_types/0/properties/1/name',
      '/body/entity_types/0/properties/2/enum',
      '/body/entity_types/0/required/0',
      '/body/relationship_types/0/type',
    ]);
  });

  it('OPTIONS and 405 list exactly the methods of the route the path belongs to', async () => {
    const t = await newTenant(0);
    const options = await call('OPTIONS', '/v1/memories/search');
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'POST, OPTIONS');
    const get = await t.get('/v1/memories/search');
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
    assert.equal(get.body.error.code, 'method_not_allowed');
    const item = await call('OPTIONS', '/v1/memories/some-id');
    assert.equal(
      item.headers.get('allow'),
      'GET, PATCH, DELETE, HEAD, OPTIONS',
      'a memory is read, corrected and deleted',
    );
    const history = await call('OPTIONS', '/v1/memories/some-id/history');
    assert.equal(history.headers.get('allow'), 'GET, HEAD, OPTIONS');
    const both = await call('OPTIONS', '/v1/memories');
    assert.equal(both.headers.get('allow'), 'POST, OPTIONS');
    const put = await call('PUT', '/v1/memories', {});
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'POST, OPTIONS');
  });
});
