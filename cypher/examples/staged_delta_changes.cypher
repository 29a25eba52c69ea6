// What a staged delta would change if applied: every node it would create, relationship it would
// add, property it would set (with the current value) and node it would delete, in staging order.
// Parameters: $delta_id.   npx gks cypher -f cypher/examples/staged_delta_changes.cypher --param delta_id=…
MATCH (d:Delta {id: $delta_id})
CALL (d) {
  MATCH (d)-[c:CREATED]->(n)
  RETURN c.seq AS seq, 'create node' AS change,
         [l IN labels(n) WHERE NOT l IN ['Knowledge', 'Pending']] AS labels,
         coalesce(n.name, n.content, n.title) AS what, null AS detail
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})-[:FROM]->(a)
  MATCH (c)-[:TO]->(b)
  RETURN c.seq AS seq, 'add relationship' AS change, [c.type] AS labels,
         coalesce(a.name, a.content, a.title) + ' -[' + c.type + ']-> ' + coalesce(b.name, b.content, b.title) AS what,
         null AS detail
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'update_node'})
  OPTIONAL MATCH (n:Knowledge {id: c.node_id})
  RETURN c.seq AS seq, 'set properties' AS change, [l IN labels(n) WHERE l <> 'Knowledge'] AS labels,
         coalesce(n.name, n.content, c.node_id) AS what,
         [k IN c.set_keys | k + ': ' + toString(n[k]) + ' -> ' + toString(c['new.' + k])] AS detail
  UNION ALL
  MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})
  OPTIONAL MATCH (n:Knowledge {id: c.node_id})
  RETURN c.seq AS seq, 'delete node' AS change, [l IN labels(n) WHERE l <> 'Knowledge'] AS labels,
         coalesce(n.name, n.content, c.node_id) AS what, null AS detail
}
RETURN d.status AS delta_status, seq, change, labels, what, detail
ORDER BY seq;
