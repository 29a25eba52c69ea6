// Revert: queues for the mention worker the memories a reverted delta restored or changed back, in the revert's own
// transaction (a restored memory's MENTIONS links are read again from its text).
MATCH (d:Delta {id: $delta_id})
CALL (d) {
  MATCH (d)-[:CREATED]->(n:Memory)
  WHERE NOT n:Pending
  RETURN n
  UNION
  MATCH (d)-[:HAS_CHANGE]->(:Change)-[:TARGET]->(n:Memory)
  WHERE NOT n:Pending
  RETURN n
}
SET n.mentions_queued_at = datetime($now)
RETURN count(n) AS queued
