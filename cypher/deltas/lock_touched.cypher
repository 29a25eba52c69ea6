// Takes the write lock of every node the delta created or changes (a property set and removed: nothing
// stays) before apply's guard judges it or revert looks for later deltas that depend on them. A write to one
// of them running at the same time has then either committed first, and is seen (the guard refuses a stale
// delta; revert names the dependent), or waits and finds its node gone (docs/deltas.md, "Concurrent writes").
MATCH (d:Delta {id: $delta_id})
CALL (d) {
  MATCH (d)-[:CREATED]->(n) RETURN n
  UNION
  MATCH (d)-[:HAS_CHANGE]->(:Change)-[:TARGET|FROM|TO]->(n) RETURN n
}
SET n.gks_lock = true
REMOVE n.gks_lock
RETURN count(n) AS locked
