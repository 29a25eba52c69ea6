// Takes the write lock of every node the delta created or changes before apply's guard judges it or revert
// looks for later deltas that depend on them. A write to one of them running at the same time has then either
// committed first, and is seen (the guard refuses a stale delta; revert names the dependent), or waits and finds
// its node gone (docs/deltas.md, "Concurrent writes"). The lock is a write of the id each node already has: the
// value unchanged, Neo4j records no change, so the guard after it runs on the audit's plans (deltas/lock).
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[:CREATED]->(n) RETURN n
  UNION
  MATCH (d)-[:HAS_CHANGE]->(:Change)-[:TARGET|FROM|TO]->(n) RETURN n
}
SET n.id = n.id
RETURN count(n) AS locked
