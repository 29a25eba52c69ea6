import assert from 'node:assert/strict';
import { Neo4jError } from 'neo4j-driver';
import { mapNeo4jError } from '../../src/db/graph.js';
import { ApiError } from '../../src/errors/catalogue.js';

describe('Neo4j failures as API errors', () => {
  it('a transaction that timed out under load is a retryable 503, not an internal error', () => {
    for (const code of [
      'Neo.ClientError.Transaction.TransactionTimedOut',
      'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
      'Neo.TransientError.Transaction.Terminated',
    ]) {
      const mapped = mapNeo4jError(
        new Neo4jError('The transaction has not completed within the timeout', code, 'gql', 'desc'),
      );
      assert.ok(mapped instanceof ApiError, code);
      assert.equal(mapped.status, 503);
      assert.equal(mapped.code, 'graph_unavailable');
      assert.equal(mapped.headers['Retry-After'], '5');
    }
  });

  it('a uniqueness collision or a node deleted concurrently is a 409 conflict; an unknown driver error passes through', () => {
    const collision = mapNeo4jError(
      new Neo4jError('exists', 'Neo.ClientError.Schema.ConstraintValidationFailed', 'gql', 'desc'),
    );
    assert.ok(collision instanceof ApiError && collision.status === 409);
    const deleted = mapNeo4jError(
      new Neo4jError('Unable to load NODE 4:x:65.', 'Neo.ClientError.Statement.EntityNotFound', '50N42', 'desc'),
    );
    assert.ok(deleted instanceof ApiError && deleted.status === 409, 'a node deleted by a concurrent write');
    const other = new Neo4jError('syntax', 'Neo.ClientError.Statement.SyntaxError', 'gql', 'desc');
    assert.equal(mapNeo4jError(other), other);
  });
});
