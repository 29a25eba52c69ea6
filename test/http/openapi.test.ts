import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { call } from '../support/api.js';
import { harness } from '../support/harness.js';
import { allRoutes } from '../../src/routes.js';

describe('OpenAPI document', () => {
  it('is served without auth and is a valid OpenAPI 3.1.0 document at version 1.0.0', async () => {
    const reply = await call('GET', '/v1/openapi.json');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.openapi, '3.1.0');
    assert.equal(reply.body.info.version, '1.0.0');
    const validator = new Validator();
    const result = await validator.validate(reply.body);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('describes every route that exists, with its error responses', async () => {
    const reply = await call('GET', '/v1/openapi.json');
    const paths = reply.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    const router = harness().service.deps;
    for (const route of allRoutes(router)) {
      const p = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const op = paths[p]?.[route.method];
      assert.ok(op, `${route.method.toUpperCase()} ${p} is missing`);
      assert.ok(op.responses['500'], `${p} lacks its 500 response`);
      if (route.auth !== false) assert.ok(op.responses['401'], `${p} lacks 401`);
    }
  });

  it('no property is both required and defaulted: the validator fills defaults in, so such a field could never be missing, yet the document says it must be given', async () => {
    const reply = await call('GET', '/v1/openapi.json');
    const found: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (!node || typeof node !== 'object') return;
      const schema = node as { properties?: Record<string, object>; required?: unknown };
      if (schema.properties && Array.isArray(schema.required))
        for (const name of schema.required as string[])
          if (schema.properties[name] && 'default' in schema.properties[name]) found.push(`${at}: ${name}`);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(reply.body.paths, '');
    assert.deepEqual(found, []);
  });
});
