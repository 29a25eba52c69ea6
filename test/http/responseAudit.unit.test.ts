import assert from 'node:assert/strict';
import { ResponseAudit } from '../../src/http/responseAudit.js';
import type { RouteSpec } from '../../src/http/route.js';

const route: RouteSpec = {
  method: 'get',
  path: '/v1/things/:id',
  operationId: 'getThing',
  tag: 'Things',
  summary: 'One thing',
  scope: 'memories:read',
  status: 200,
  errors: [],
  response: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
  handler: async () => ({ body: {} }),
};

describe('Response audit', () => {
  it('records bodies outside the declared schema and statuses the operation does not declare', () => {
    const audit = new ResponseAudit();
    audit.attach([route]);
    audit.check('getThing', 200, { name: 'ok', request_id: 'r' });
    audit.check('getThing', 404, { error: { code: 'not_found', message: 'm', details: {} }, request_id: 'r' });
    assert.equal(audit.violations.length, 0, audit.summary());
    audit.check('getThing', 200, { name: null });
    audit.check('getThing', 404, { error: { code: 'not_found', message: 'm' }, request_id: 'r' });
    audit.check('getThing', 402, { error: { code: 'credits_exhausted', message: 'm', details: {} }, request_id: 'r' });
    assert.deepEqual(
      audit.violations.map((v) => [v.status, v.problem.split(' ')[0]]),
      [
        [200, '/name'],
        [404, '/error'],
        [402, 'status'],
      ],
    );
  });

  it('lists the operations never answered with a success status', () => {
    const audit = new ResponseAudit();
    audit.attach([route]);
    audit.check('getThing', 404, { error: { code: 'not_found', message: 'm', details: {} }, request_id: 'r' });
    assert.deepEqual(audit.unexercised(), ['GET /v1/things/:id']);
    audit.check('getThing', 200, { name: 'x' });
    assert.deepEqual(audit.unexercised(), []);
  });
});
