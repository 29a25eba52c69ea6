// Benchmark only (bench/preflight.ts): the delta history a graph built through governed writes
// carries, for node numbers $from..$to-1: one applied delta that CREATED them, and a :Change record
// (FROM, TO) for each relationship they start. Without it the few records of the audited deltas
// would swing Neo4j's statistics and trigger replanning that a real graph does not see.
CREATE (d:Delta {id: $prefix + 'd' + toInteger($from), project_id: $project_id, status: 'applied', origin: 'bench',
                 summary: 'bench load', created_at: datetime($now), updated_at: datetime($now), applied_at: datetime($now),
                 change_count: toInteger($to) - toInteger($from)})
WITH d
UNWIND range(toInteger($from), toInteger($to) - 1) AS i
MATCH (n:Knowledge {id: $prefix + i})
CREATE (d)-[:CREATED {seq: i, change_id: $prefix + 'c' + i}]->(n)
WITH d, n, i
CALL (d, n, i) {
  MATCH (n)-[r]->(m)
  WHERE r.id IS NOT NULL
  CREATE (c:Change {id: $prefix + 'ch' + r.id, delta_id: d.id, seq: i, op: 'create_relationship', relationship_id: r.id, type: type(r)})
  CREATE (d)-[:HAS_CHANGE]->(c)
  CREATE (c)-[:FROM]->(n)
  CREATE (c)-[:TO]->(m)
}
RETURN count(*) AS recorded
