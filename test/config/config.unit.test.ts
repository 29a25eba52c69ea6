import assert from 'node:assert/strict';
import { ConfigError, loadConfig, localNeo4jMemory } from '../../src/config/config.js';

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
    ['NEO4J_POOL_SIZE', '0'],
    ['GKS_NEO4J_HEAP_MB', 'lots'],
    ['GKS_NEO4J_TX_TIMEOUT_S', '0'],
    ['GKS_NEO4J_VECTOR_MERGE_FACTOR', '1'],
  ] as const) {
    it(`a bad ${variable} fails at start naming the variable`, () => {
      assert.throws(
        () => loadConfig({ [variable]: value }),
        (e: unknown) => e instanceof ConfigError && e.variable === variable && e.message.includes(variable),
      );
    });
  }

  describe('the local Neo4j is sized from the machine', () => {
    it('heap an eighth and page cache a quarter of the memory, within their bounds', () => {
      assert.deepEqual(localNeo4jMemory({}, 24_576), {
        heapMb: 3_072,
        pageCacheMb: 6_144,
        txTimeoutSeconds: 300,
        vectorMergeFactor: 4,
      });
      assert.deepEqual(localNeo4jMemory({}, 2_048), {
        heapMb: 512,
        pageCacheMb: 512,
        txTimeoutSeconds: 300,
        vectorMergeFactor: 4,
      });
      assert.deepEqual(localNeo4jMemory({}, 262_144), {
        heapMb: 8_192,
        pageCacheMb: 16_384,
        txTimeoutSeconds: 300,
        vectorMergeFactor: 4,
      });
    });

    it('set values win, and values that leave under a quarter of the machine fail naming the variable', () => {
      const set = localNeo4jMemory({ GKS_NEO4J_HEAP_MB: '1024', GKS_NEO4J_PAGECACHE_MB: '700' }, 24_576);
      assert.deepEqual(set, { heapMb: 1_024, pageCacheMb: 700, txTimeoutSeconds: 300, vectorMergeFactor: 4 });
      assert.equal(localNeo4jMemory({ GKS_NEO4J_VECTOR_MERGE_FACTOR: '50' }, 24_576).vectorMergeFactor, 50);
      assert.throws(
        () => localNeo4jMemory({ GKS_NEO4J_PAGECACHE_MB: '20000' }, 24_576),
        (e: unknown) => e instanceof ConfigError && e.variable === 'GKS_NEO4J_PAGECACHE_MB',
      );
    });
  });
});
