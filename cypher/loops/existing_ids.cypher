// Which of the given ids a loop already staged into its delta (nodes) or as relationship changes.
MATCH (d:Delta {id: $delta_id})
CALL (d) {
  MATCH (d)-[:CREATED]->(n) WHERE n.id IN $ids RETURN n.id AS id
  UNION
  MATCH (d)-[:HAS_CHANGE]->(c:Change) WHERE c.relationship_id IN $ids RETURN c.relationship_id AS id
}
RETURN collect(id) AS ids
