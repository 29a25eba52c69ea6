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
});
