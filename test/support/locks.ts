// Forcing the order of concurrent requests: a raw transaction takes the write lock of some nodes, the requests
// start and read while it holds it, and it commits a second later, so every request has read before any writes.
import assert from 'node:assert/strict';
import type { Driver } from 'neo4j-driver';
import type { Reply } from './api.js';

/** Holds the write lock of the nodes `match` binds to n while `requests` start, then lets them go; their answers. */
export async function whileLocked(
  driver: Driver,
  match: { cypher: string; params: Record<string, unknown> },
  requests: () => Promise<Reply>[],
): Promise<Reply[]> {
  const session = driver.session();
  const tx = session.beginTransaction();
  try {
    const held = await tx.run(
      `${match.cypher} SET n.probe_lock = true REMOVE n.probe_lock RETURN count(n) AS n`,
      match.params,
    );
    assert.ok(Number(held.records[0]?.get('n')) > 0, 'the raw transaction locked nothing');
    const replies = requests();
    await new Promise((r) => setTimeout(r, 1_000));
    await tx.commit();
    return await Promise.all(replies);
  } finally {
    await session.close();
  }
}
