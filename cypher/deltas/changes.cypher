// The changes of a delta in the order they were staged: created nodes, created relationships,
// updates (new and, once applied, previous values), deletions and deleted relationships. A created node's vectors
// (an applied memory's own and context vectors) are not sent: no view shows them (docs/embeddings.md).
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[c:CREATED]->(n)
  RETURN c.seq AS seq, c.change_id AS change_id, 'create_node' AS op, n.id AS node_id,
         [l IN labels(n) WHERE NOT l IN ['Knowledge', 'Pending']] AS labels,
         n {.*, embedding: null, context_embedding: null} AS properties,
         null AS relationship_id, null AS type, null AS from_id, null AS to_id, [] AS set
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change)
  WHERE c.op IN ['create_relationship', 'delete_relationship']
  OPTIONAL MATCH (c)-[:FROM]->(a)
  OPTIONAL MATCH (c)-[:TO]->(b)
  OPTIONAL MATCH (a)-[r]->(b) WHERE r.id = c.relationship_id
  RETURN c.seq AS seq, c.id AS change_id, c.op AS op, null AS node_id, null AS labels, properties(r) AS properties,
         c.relationship_id AS relationship_id, c.type AS type, coalesce(a.id, c.from_id) AS from_id, coalesce(b.id, c.to_id) AS to_id, [] AS set
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change)
  WHERE c.op IN ['update_node', 'delete_node']
  RETURN c.seq AS seq, c.id AS change_id, c.op AS op, c.node_id AS node_id, c.old_labels AS labels, null AS properties,
         null AS relationship_id, null AS type, null AS from_id, null AS to_id,
         [k IN coalesce(c.set_keys, []) | {key: k, value: c['new.' + k], previous: c['old.' + k]}] AS set
}
RETURN seq, change_id, op, node_id, labels, properties, relationship_id, type, from_id, to_id, set
ORDER BY seq
LIMIT toInteger($limit)
