import assert from 'node:assert/strict';
import net from 'node:net';
import { call, newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { allRoutes } from '../../src/routes.js';

type Operation = {
  parameters: { name: string; in: string; schema: Record<string, unknown> }[];
  responses: Record<string, { description: string; content: Record<string, { schema: Record<string, unknown> }> }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
};

/** Sends bytes as they are (a request fetch would refuse to send) and reads the answer's status and JSON body. */
function rawRequest(text: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(harness().url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let answer = Buffer.alloc(0);
    const done = () => {
      const at = answer.indexOf('\r\n\r\n');
      if (at < 0) return false;
      const head = answer.subarray(0, at).toString();
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      const body = answer.subarray(at + 4);
      if (body.length < length) return false;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      let parsed: unknown = body.toString();
      try {
        parsed = JSON.parse(String(parsed));
      } catch {
        /* not JSON */
      }
      resolve({ status, body: parsed });
      return true;
    };
    // The answer may come while the connection stays open (a body declared and never sent): read it whole, then go.
    socket.on('data', (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      if (done()) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => done() || resolve({ status: 0, body: answer.toString() }));
  });
}

async function document(): Promise<{ paths: Record<string, Record<string, Operation>> }> {
  return (await call('GET', '/v1/openapi.json')).body;
}

/** POSTs that take no Idempotency-Key, and why: a read, or a request that done twice is done once. */
const NOT_IDEMPOTENT = new Map([
  ['searchMemories', 'a read'],
  ['synthesizeMemories', 'a read: a briefing written from what is committed'],
  ['search', 'a read'],
  ['auditDelta', 'a read'],
  ['compileSlice', 'a read'],
  ['compileContext', 'a read'],
  ['briefContext', 'a read'],
  ['proposeBridge', 'a read: nothing is stored'],
  ['testConnectionToken', 'a check of a token: nothing is stored'],
  ['testConnection', "a check of a connection's token: nothing is stored"],
  ['extractDocument', 'records the requested shape on the document and answers the handoff: twice is once'],
  ['cancelLoop', 'cancelling twice is cancelling once'],
  ['pauseConnection', 'pausing twice is pausing once'],
  ['resumeConnection', 'resuming twice is resuming once'],
]);

describe('Published contract', () => {
  it('every writing POST honours Idempotency-Key (webhook create and rotate-secret too) and lists its 409', async () => {
    const doc = await document();
    const missing = allRoutes(harness().service.deps)
      .filter((r) => r.method === 'post' && !r.idempotent && !NOT_IDEMPOTENT.has(r.operationId))
      .map((r) => `POST ${r.path}`);
    assert.deepEqual(missing, []);
    for (const path of ['/v1/webhooks', '/v1/webhooks/{id}/rotate-secret']) {
      const op = doc.paths[path]!.post!;
      assert.match(op.responses['409']!.description, /idempotency_conflict/, path);
      assert.ok(
        op.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
        path,
      );
    }
  });

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

  it('every operation answers, and lists, what the shared layers answer before its handler runs', async function () {
    this.timeout(300_000);
    const doc = await document();
    const t = await newTenant(0);
    const keys = {
      graph: await t.keyWith({ scopes: ['graph:read'] }),
      memories: await t.keyWith({ scopes: ['memories:read'] }),
    };
    const answered: string[] = [];
    for (const route of allRoutes(harness().service.deps)) {
      const op = doc.paths[route.path.replace(/:([A-Za-z_]+)/g, '{$1}')]![route.method]!;
      const name = `${route.method.toUpperCase()} ${route.path}`;
      const path = route.path.replace(/:([A-Za-z_]+)/g, '00000000-0000-4000-8000-000000000057');
      const method = route.method.toUpperCase();
      const expect = (status: number, what: string, reply: { status: number; body: unknown }) => {
        assert.equal(reply.status, status, `${name} ${what}: ${JSON.stringify(reply.body)}`);
        assert.ok(op.responses[String(status)], `${name} answers ${status} (${what}) but does not list it`);
        answered.push(`${name} ${status}`);
      };
      assert.ok(op.responses['500'], `${name} lacks 500`);
      // A request the HTTP parser cannot read: any path, before any route.
      const unreadable = await rawRequest(`${method} ${path} HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n`);
      expect(400, 'unreadable request', unreadable);
      assert.equal((unreadable.body as { error: { code: string } }).error.code, 'invalid_request');
      if (route.auth !== false) {
        expect(401, 'without a key', await call(method, path));
        if (route.scope && route.scope !== 'admin') {
          const key = route.scope === 'graph:read' ? keys.memories : keys.graph;
          expect(403, `without ${route.scope}`, await call(method, path, undefined, { key }));
        }
        for (const s of ['429', '503']) assert.ok(op.responses[s], `${name} lacks ${s}`);
      }
      if (method !== 'GET') {
        const big = { 'Content-Length': String(10 * 1024 * 1024 * 1024) };
        expect(
          413,
          'declared past the limit',
          await rawRequest(
            `${method} ${path} HTTP/1.1\r\nHost: x\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${big['Content-Length']}\r\n\r\n`,
          ),
        );
        if (route.auth !== false) {
          expect(400, 'malformed JSON', await call(method, path, undefined, { key: t.key, raw: '{' }));
          expect(
            415,
            'a text body',
            await call(method, path, undefined, { key: t.key, raw: 'x', contentType: 'text/plain' }),
          );
        }
      }
      if (route.idempotent) {
        assert.ok(op.responses['409'], `${name} is idempotent and lacks 409`);
        const bad = await call(method, path, undefined, {
          key: t.key,
          headers: { 'Idempotency-Key': 'a b' },
          raw: '{}',
        });
        assert.ok(op.responses[String(bad.status)], `${name} answers ${bad.status} to a malformed Idempotency-Key`);
      }
    }
    assert.ok(answered.length > 300, `${answered.length} answers checked`);
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
