import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('configuration', () => {
  it('defaults are documented values', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.neo4j.uri, undefined);
    assert.equal(config.temporal.taskQueue, 'gks-loops');
  });

  for (const [variable, value] of [
    ['PORT', 'eighty'],
    ['NEO4J_URI', 'http://localhost:7474'],
    ['TEMPORAL_ADDRESS', 'localhost'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_BURST', '0'],
    ['FETCH_ALLOW_PRIVATE', 'maybe'],
  ] as const) {
    it(`a bad ${variable} fails at start naming the variable`, () => {
      assert.throws(
        () => loadConfig({ [variable]: value }),
        (e: unknown) => e instanceof ConfigError && e.variable === variable && e.message.includes(variable),
      );
    });
  }
});
