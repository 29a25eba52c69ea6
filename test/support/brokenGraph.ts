// What no sequence of acknowledged writes may leave in a project's graph: the checks the chaos runs end with
// (test/deltas/concurrentChaos.test.ts in npm test, test/chaos/broad.chaos.ts in npm run chaos).
import { graph } from '../preflight/support.js';
import type { Tenant } from './api.js';

/** What no sequence of acknowledged writes may leave in the project's graph. */
export async function brokenGraph(t: Tenant): Promise<string[]> {
  const rows = await graph().read((tx) =>
    tx.runText(
      `MATCH (n:Pending {project_id: $p})
       WHERE NOT EXISTS { MATCH (d:Delta {id: n.delta_id}) WHERE d.status = 'staged' }
       RETURN 'staged node ' + n.id + ' outside a staged delta' AS problem
       UNION ALL
       MATCH (m:Memory {project_id: $p})
       WHERE NOT m:Pending AND m.valid_from IS NOT NULL AND m.valid_to IS NOT NULL AND m.valid_to < m.valid_from
       RETURN 'memory ' + m.id + ' ends before it starts' AS problem
       UNION ALL
       MATCH (:Entity {project_id: $p})-[r]->(:Entity)
       WHERE r.memory_id IS NOT NULL AND r.pending IS NULL
         AND NOT EXISTS { MATCH (m:Memory {id: r.memory_id}) WHERE NOT m:Pending }
       RETURN 'fact edge ' + r.id + ' of memory ' + r.memory_id + ', which is gone' AS problem
       UNION ALL
       MATCH (s:Entity {project_id: $p})-[r]->(o:Entity)
       WHERE r.memory_id IS NOT NULL AND r.pending IS NULL
       MATCH (m:Memory {id: r.memory_id}) WHERE NOT m:Pending
       WITH s, o, r, m
       WHERE NOT EXISTS { MATCH (m)-[l:HAS_SUBJECT]->(s) WHERE l.pending IS NULL }
          OR NOT EXISTS { MATCH (m)-[l:HAS_OBJECT]->(o) WHERE l.pending IS NULL }
       RETURN 'fact edge ' + r.id + ' disagrees with the links of memory ' + m.id AS problem
       UNION ALL
       MATCH (m:Memory {project_id: $p}) WHERE NOT m:Pending AND m.predicate IS NOT NULL
       WITH m, COUNT { MATCH (:Entity)-[r]->(:Entity) WHERE r.memory_id = m.id AND r.pending IS NULL } AS edges
       WHERE edges > 1
       RETURN 'memory ' + m.id + ' has ' + edges + ' fact edges' AS problem
       UNION ALL
       MATCH (c:Chunk {project_id: $p}) WHERE NOT c:Pending
         AND NOT EXISTS { MATCH (d:Document)-[r:HAS_CHUNK]->(c) WHERE NOT d:Pending AND r.pending IS NULL }
       RETURN 'chunk ' + c.id + ' without its document' AS problem
       UNION ALL
       MATCH (d:Document {project_id: $p}) WHERE NOT d:Pending
       WITH d, COUNT { MATCH (d)-[r:HAS_CHUNK]->(c:Chunk) WHERE NOT c:Pending AND r.pending IS NULL } AS n
       WHERE n <> d.chunk_count
       RETURN 'document ' + d.id + ' has ' + n + ' chunks but says ' + d.chunk_count AS problem`,
      { p: t.projectId },
    ),
  );
  return rows.map((r) => String(r.problem));
}
