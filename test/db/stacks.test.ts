import assert from 'node:assert/strict';
import { Neo4jError } from 'neo4j-driver';
import { harness } from '../support/harness.js';

describe('Driver statements without the per-result stack capture', () => {
  it('a statement the engine refuses still reaches its caller with a stack naming the callers that awaited it', async () => {
    const graph = harness().service.deps.graph;
    async function callerThatRanABadStatement(): Promise<unknown> {
      try {
        await graph.read((tx) => tx.runText('MATCH (n) RETURN n.missing +* 1'));
      } catch (error) {
        return error;
      }
      return null;
    }
    const error = await callerThatRanABadStatement();
    assert.ok(error instanceof Neo4jError, `a driver error: ${String(error)}`);
    assert.match(error.code, /SyntaxError/);
    const stack = error.stack ?? '';
    assert.ok(stack.startsWith(`${error.name}: ${error.message}`), stack);
    assert.match(stack, /at async callerThatRanABadStatement/, stack);
  });

  it('an auto-commit read refused by the engine is restacked the same way, and the stack limit is left as it was', async () => {
    const graph = harness().service.deps.graph;
    const limit = Error.stackTraceLimit;
    async function readerOfABadStatement(): Promise<unknown> {
      return graph.readText('RETURN 1 +* 1', {}, {}).catch((error: unknown) => error);
    }
    const error = await readerOfABadStatement();
    assert.ok(error instanceof Neo4jError);
    // A frame of the Graph, where the error is thrown (by its file: in the full suite a frame's name was once mapped
    // from the wrong line of graph.ts's source map, "answer" from a comment, though file and stack were right).
    assert.match(error.stack ?? '', /\n\s+at .*src\/db\/graph\.ts:\d+/, error.stack);
    assert.equal(Error.stackTraceLimit, limit);
  });
});
