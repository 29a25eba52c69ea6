// known_at (transaction time, docs/facts.md), 1 of 3: the ids of nodes and relationships present
// now that the graph did not know at $known_at: created by a delta applied after it, or brought
// back by the revert, after it, of a deletion applied by then. Cost: the project's deltas, and the
// changes of those applied or reverted after $known_at.
MATCH (d:Delta {project_id: $project_id})
WHERE d.created_at IS NOT NULL AND d.applied_at IS NOT NULL
  AND (d.applied_at > datetime($known_at) OR d.reverted_at > datetime($known_at))
CALL (d) {
  WITH d WHERE d.applied_at > datetime($known_at)
  MATCH (d)-[:CREATED]->(n)
  RETURN n.id AS id
  UNION
  WITH d WHERE d.applied_at > datetime($known_at)
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})
  RETURN c.relationship_id AS id
  UNION
  WITH d WHERE d.applied_at <= datetime($known_at) AND d.reverted_at > datetime($known_at)
  MATCH (d)-[:HAS_CHANGE]->(c:Change)
  WHERE c.op IN ['delete_node', 'delete_relationship']
  RETURN coalesce(c.node_id, c.relationship_id) AS id
}
RETURN collect(DISTINCT id) AS ids
