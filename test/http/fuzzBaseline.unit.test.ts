import assert from 'node:assert/strict';
import fs from 'node:fs';
import { accepts, compareWithBaseline, type Baseline, type Failure } from '../../scripts/fuzzReport.js';

const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'positive_data_acceptance',
  'missing_required_header',
  'unsupported_method',
  'allow_header_conformance',
  'use_after_free',
  'ensure_resource_availability',
  'ignored_auth',
  'object_level_authorization',
  'max_response_time',
];

const failure = (over: Partial<Failure>): Failure => ({
  check: 'positive_data_acceptance',
  code: 'ST202',
  operation: 'GET /v1/deltas',
  status: 400,
  response: '{"error":{"details":{"fields":[{"field":"/query/cursor"}]}}}',
  request: 'GET /v1/deltas?cursor=abc',
  trigger: '',
  ...over,
});

describe('Fuzz baseline', () => {
  const baseline = JSON.parse(fs.readFileSync('fuzz/baseline.json', 'utf8')) as Baseline;

  it('every accepted failure names a known check and says why; none accepts server errors or schema violations', () => {
    for (const entry of baseline.entries) {
      assert.ok(CHECKS.includes(entry.check), entry.check);
      assert.ok(entry.reason.length > 20, `${entry.check} ${entry.operation} needs a reason`);
      assert.ok(
        !['not_a_server_error', 'response_schema_conformance'].includes(entry.check),
        `${entry.check} may never be accepted`,
      );
    }
  });

  it('accepts only the failures an entry matches by check, operation and text', () => {
    const cursor = failure({});
    assert.ok(baseline.entries.some((e) => accepts(e, cursor)));
    assert.equal(compareWithBaseline([cursor], baseline).unexpected.length, 0);
    const other400 = failure({
      response: '{"error":{"details":{"fields":[{"field":"/query/limit"}]}}}',
      request: 'GET /v1/deltas?limit=5',
    });
    const serverError = failure({ check: 'not_a_server_error', status: 500 });
    assert.equal(compareWithBaseline([other400, serverError], baseline).unexpected.length, 2);
  });

  it('accepts a read after a staged DELETE or a staged create only when the triggering request staged it', () => {
    const afterDelete = (trigger: string) =>
      failure({
        check: 'use_after_free',
        code: 'ST301',
        operation: 'DELETE /v1/shapes/{id}',
        status: 200,
        response: '{"id":"s1","name":"Person"}',
        request: 'GET http://h/v1/shapes/s1?project_id=p ',
        trigger,
      });
    const stagedDelete = afterDelete('DELETE http://h/v1/shapes/s1?project_id=p&apply=false ');
    const appliedDelete = afterDelete('DELETE http://h/v1/shapes/s1?project_id=p ');
    const missedCreate = (body: string) =>
      failure({
        check: 'ensure_resource_availability',
        code: 'ST302',
        operation: 'POST /v1/memories',
        status: 404,
        response: '{"error":{"code":"not_found"}}',
        request: 'GET http://h/v1/memories/m1?project_id=p ',
        trigger: `POST http://h/v1/memories ${body}`,
      });
    const verdict = compareWithBaseline(
      [
        stagedDelete,
        appliedDelete,
        missedCreate('{"content": "x", "apply": false}'),
        missedCreate(`{"content": "${'x'.repeat(2000)}", "apply": false}`),
        missedCreate('{"content": "x", "apply": true}'),
        missedCreate('{"content": "x"}'),
      ],
      baseline,
    );
    assert.deepEqual(
      verdict.unexpected.map((line) => line.split('\n')[0]),
      [
        `use_after_free (ST301) DELETE /v1/shapes/{id} -> 200: {"id":"s1","name":"Person"}`,
        `ensure_resource_availability (ST302) POST /v1/memories -> 404: {"error":{"code":"not_found"}}`,
        `ensure_resource_availability (ST302) POST /v1/memories -> 404: {"error":{"code":"not_found"}}`,
      ],
    );
    assert.ok(verdict.unexpected[0]!.includes('after: DELETE http://h/v1/shapes/s1?project_id=p '));
  });
});
