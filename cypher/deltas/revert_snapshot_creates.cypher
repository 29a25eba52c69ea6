// Revert, step 0: before what the delta created is removed, keep it on :CreatedSnapshot records of
// the delta (a node's labels and properties; a relationship's type, ends and properties), so a read
// with known_at between the apply and this revert still sees what the graph knew then
// (docs/facts.md). Vectors are not kept; connections are not kept (their secrets never outlive them).
MATCH (d:Delta {id: $delta_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[:CREATED]->(n)
  WHERE NOT n:Connection
  WITH d, n, [k IN keys(n) WHERE NOT k IN ['embedding', 'embedding_model', 'embedding_text_hash', 'embedding_queued_at',
    'embedding_error']] AS kept
  CREATE (d)-[:HAD_CREATED]->(s:CreatedSnapshot {kind: 'node', id: n.id, project_id: d.project_id,
    old_labels: [l IN labels(n) WHERE NOT l IN ['Knowledge', 'Pending']], old_keys: kept})
  FOREACH (k IN kept | SET s['old.' + k] = n[k])
  RETURN count(s) AS nodes
}
CALL (d) {
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})-[:FROM]->(a)
  MATCH (c)-[:TO]->(b)
  MATCH (a)-[r]->(b)
  WHERE r.id = c.relationship_id
  CREATE (d)-[:HAD_CREATED]->(s:CreatedSnapshot {kind: 'relationship', id: r.id, project_id: d.project_id,
    type: type(r), from_id: a.id, to_id: b.id, old_keys: keys(r)})
  FOREACH (k IN keys(r) | SET s['old.' + k] = r[k])
  RETURN count(s) AS relationships
}
RETURN nodes, relationships
