// Preflight by meaning (docs/recall.md, "Near duplicates by meaning"): for each new entity of the
// delta ($pending: {id, type, vector}, embedded as a passage by the audit), the committed entities of
// the project of the same type whose vector (of the current $model) has a cosine of at least
// $threshold with it: proposed as possibly the same entity, never merged. The vector index spans every
// project, so it is asked for $k neighbours and they are filtered here. Entities the delta deletes do
// not count. The index's score is (1 + cos) / 2.
// The $k nearest: compared exactly in a project of at most $exact_up_to entities, else the index's.
// Kept plan (replan=skip): the audit is anchored on its delta and its project (index hints), so statistics never
// change the right plan, and Neo4j planned it again inside the first audits after a young graph grew.
CYPHER replan=skip
// include: search/held_entities
UNWIND $pending AS p
WITH vector_index, held, p, p.vector AS question
// include: search/nearest
WITH p, node AS e, 2 * score - 1 AS similarity
WHERE e.project_id = $project_id AND NOT e:Pending AND e.embedding_model = $model
  AND coalesce(e.type, '') = coalesce(p.type, '')
  AND similarity >= $threshold
  AND NOT EXISTS { (e)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
RETURN p.id AS pending_id, e.id AS committed_id, e.name AS committed_name, e.type AS type, similarity
ORDER BY pending_id, similarity DESC, committed_id
