// Ties the loop's delta to its committed source documents (documents show pendingReview from this).
MATCH (d:Delta {id: $delta_id})
UNWIND $source_ids AS source_id
MATCH (s:Document:Knowledge {id: source_id})
USING INDEX s:Knowledge(id)
WHERE s.project_id = $project_id AND NOT s:Pending
MERGE (d)-[:USES_SOURCE]->(s)
RETURN count(s) AS linked
