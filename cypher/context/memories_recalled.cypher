// Context candidates, memory plane, ranked by memory recall's channels (src/memories/graphRecall.ts; docs/recall.md,
// "Compile and brief"): the memories $ids, in that order, as the plane's other statements give them. Recall read
// them committed and recallable a moment ago; one deleted since comes back without its id and is left out.
UNWIND range(0, size($ids) - 1) AS i
OPTIONAL MATCH (node:Knowledge:Memory {id: $ids[i]})
USING INDEX node:Knowledge(id)
WHERE node.project_id = $project_id AND NOT node:Pending
WITH i, node
ORDER BY i
RETURN node.id AS id, node.name AS name, node.content AS text, node.kind AS kind,
       toString(node.date_observed) AS date_observed,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms
