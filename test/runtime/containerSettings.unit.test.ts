// The Testcontainers path (GKS_USE_TESTCONTAINERS=true; no Docker engine runs on our machines, so the container is
// never started here) gives its Neo4j the settings the local launcher gives the embedded engine, named as the Neo4j
// image reads them from the environment.
import assert from 'node:assert/strict';
import { localNeo4jMemory } from '../../src/config/config.js';
import { containerNeo4jEnvironment, dockerSettingName } from '../../src/runtime/testcontainers.js';

describe('the container Neo4j (Testcontainers path)', () => {
  it("names a setting as the image reads it: NEO4J_, '_' as '__', '.' as '_' (the operations manual's examples)", () => {
    assert.equal(dockerSettingName('browser.post_connect_cmd'), 'NEO4J_browser_post__connect__cmd');
    assert.equal(dockerSettingName('db.tx_log.rotation.size'), 'NEO4J_db_tx__log_rotation_size');
    assert.equal(dockerSettingName('server.memory.heap.max_size'), 'NEO4J_server_memory_heap_max__size');
  });

  it("gets the local engine's memory, transaction timeout and monitor, and vector merge factor, with auth off", () => {
    const local = localNeo4jMemory({ GKS_NEO4J_TX_TIMEOUT_S: '120', GKS_NEO4J_VECTOR_MERGE_FACTOR: '6' }, 24_576);
    assert.deepEqual(containerNeo4jEnvironment(local), {
      NEO4J_AUTH: 'none',
      NEO4J_server_memory_heap_initial__size: '3072m',
      NEO4J_server_memory_heap_max__size: '3072m',
      NEO4J_server_memory_pagecache_size: '6144m',
      NEO4J_db_transaction_timeout: '120s',
      NEO4J_db_transaction_monitor_check_interval: '100ms',
      NEO4J_internal_dbms_index_vector_standard__merge__factor: '6',
    });
  });
});
