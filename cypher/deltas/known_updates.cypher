// known_at (transaction time, docs/facts.md), 3 of 3: property and label changes of nodes after
// $known_at, oldest first. An update applied after it held the value before (side 'old', kept at
// apply) and had neither the labels it added nor lost those it removed; an update applied by then
// and reverted after it held its new value (side 'new') and its label change (a retype). current is
// the node as it is now (null when it is gone), without its vector.
MATCH (d:Delta {project_id: $project_id})
WHERE d.created_at IS NOT NULL AND d.applied_at IS NOT NULL
  AND (d.applied_at > datetime($known_at) OR d.reverted_at > datetime($known_at))
MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'update_node'})
// By id, not TARGET: a node deleted and restored since has lost the TARGET links of older changes.
OPTIONAL MATCH (n:Knowledge {id: c.node_id})
         USING INDEX n:Knowledge(id)
WITH d, c, n, d.applied_at > datetime($known_at) AS applied_after
RETURN c.node_id AS id, CASE WHEN applied_after THEN 'old' ELSE 'new' END AS side, c.set_keys AS keys,
       coalesce(c.add_labels, []) AS add_labels, coalesce(c.remove_labels, []) AS remove_labels,
       properties(c) AS change,
       CASE WHEN n IS NULL THEN null ELSE n {.*, embedding: null, context_embedding: null} END AS current,
       CASE WHEN n IS NULL THEN null ELSE labels(n) END AS labels,
       CASE WHEN applied_after THEN d.applied_at ELSE d.reverted_at END AS at
ORDER BY at, d.id, c.seq
