// Takes the write lock of every node the delta created or changed (a property set and removed: nothing
// stays) before revert looks for later deltas that depend on them. A write to one of them running at the
// same time has then either committed first, and is found as a dependent, or waits for the revert and
// finds its node gone (docs/deltas.md, "Concurrent writes").
MATCH (d:Delta {id: $delta_id})
CALL (d) {
  MATCH (d)-[:CREATED]->(n) RETURN n
  UNION
  MATCH (d)-[:HAS_CHANGE]->(:Change)-[:TARGET|FROM|TO]->(n) RETURN n
}
SET n.gks_lock = true
REMOVE n.gks_lock
RETURN count(n) AS locked
