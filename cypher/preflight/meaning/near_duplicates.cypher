// Preflight by meaning (docs/recall.md, "Near-duplicate memories"): for each new memory of the delta
// ($pending: {id, vector}, its text embedded as a passage by the audit), the committed memories of the
// project whose vector (of the current $model) has a cosine of at least $threshold with it. The vector
// index spans every project, so it is asked for $k neighbours and they are filtered to the project.
// Memories the delta deletes, or whose content it corrects, do not count. The index's score is
// (1 + cos) / 2. Rows ordered so equal graphs give equal findings.
// The $k nearest: compared exactly in a project of at most $exact_up_to memories, else the index's.
// Kept plan (replan=skip): the audit is anchored on its delta and its project (index hints), so statistics never
// change the right plan, and Neo4j planned it again inside the first audits after a young graph grew.
CYPHER replan=skip
// include: search/held_memories
UNWIND $pending AS p
WITH vector_index, held, p, p.vector AS question
// include: search/nearest
WITH p, node AS m, 2 * score - 1 AS similarity
WHERE m.project_id = $project_id AND NOT m:Pending AND m.embedding_model = $model
  AND similarity >= $threshold
  AND NOT EXISTS { (m)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  AND NOT EXISTS { (m)<-[:TARGET]-(u:Change {op: 'update_node', delta_id: $delta_id}) WHERE 'content' IN u.set_keys }
RETURN p.id AS pending_id, m.id AS committed_id, m.name AS committed_name, m.content AS committed_content, similarity
ORDER BY pending_id, similarity DESC, committed_id
