// known_at (transaction time, docs/facts.md), 2 of 3: what the graph knew at $known_at and has
// since forgotten, from the records deltas keep: nodes and relationships a delta applied after it
// deleted (the delete_node and delete_relationship change records, the node's relationship
// snapshots), and what a delta applied by then created and a revert after it removed (the
// :CreatedSnapshot records the revert keeps). props holds the values under the key prefix named by
// prefix. Only what its own creating delta had applied by $known_at (or carries no delta) is known.
MATCH (d:Delta {project_id: $project_id})
WHERE d.created_at IS NOT NULL AND d.applied_at IS NOT NULL
  AND ((d.status = 'applied' AND d.applied_at > datetime($known_at))
    OR (d.status = 'reverted' AND d.applied_at <= datetime($known_at) AND d.reverted_at > datetime($known_at)))
CALL (d) {
  WITH d WHERE d.status = 'reverted'
  MATCH (d)-[:HAD_CREATED]->(s:CreatedSnapshot)
  RETURN s.kind AS kind, s.id AS id, s.old_labels AS labels, s.type AS type, s.from_id AS source, s.to_id AS target,
         properties(s) AS props, 'old.' AS prefix, s['old.delta_id'] AS creator
  UNION ALL
  WITH d WHERE d.status = 'applied'
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})
  RETURN 'node' AS kind, c.node_id AS id, c.old_labels AS labels, null AS type, null AS source, null AS target,
         properties(c) AS props, 'old.' AS prefix, c['old.delta_id'] AS creator
  UNION ALL
  WITH d WHERE d.status = 'applied'
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})-[:HAD_RELATIONSHIP]->(s:RelationshipSnapshot)
  WHERE NOT s.other_is_delta
  RETURN 'relationship' AS kind, s['prop.id'] AS id, null AS labels, s.type AS type,
         CASE s.direction WHEN 'out' THEN c.node_id ELSE s.other_id END AS source,
         CASE s.direction WHEN 'out' THEN s.other_id ELSE c.node_id END AS target,
         properties(s) AS props, 'prop.' AS prefix, s['prop.delta_id'] AS creator
  UNION ALL
  WITH d WHERE d.status = 'applied'
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'delete_relationship'})
  WHERE c.old_keys IS NOT NULL
  RETURN 'relationship' AS kind, c.relationship_id AS id, null AS labels, c.type AS type, c.from_id AS source,
         c.to_id AS target, properties(c) AS props, 'old.' AS prefix, c['old.delta_id'] AS creator
}
WITH kind, id, labels, type, source, target, props, prefix, creator
WHERE id IS NOT NULL
  AND (creator IS NULL OR EXISTS {
    MATCH (cd:Delta {id: creator}) USING INDEX cd:Delta(id) WHERE cd.applied_at <= datetime($known_at)
  })
RETURN kind, id, labels, type, source, target, props, prefix
ORDER BY kind, id
