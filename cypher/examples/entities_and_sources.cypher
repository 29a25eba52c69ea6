// Entities of a project with where each comes from: the documents a loop extracted it from, the
// memories and submissions that name it, and the delta (and its origin) that created it.
// Committed graph only. Parameters: $project_id.
// The entities are found as the project's Knowledge nodes (its index on project_id), then told by label:
// no index of Entity starts with project_id alone, so `(e:Entity {project_id: …})` reads every entity.
MATCH (e:Knowledge {project_id: $project_id})
WHERE e:Entity AND NOT e:Pending
OPTIONAL MATCH (creator:Delta {id: e.delta_id})
CALL (e) {
  OPTIONAL MATCH (e)-[x:EXTRACTED_FROM]->(doc:Document)
  WHERE x.pending IS NULL AND NOT doc:Pending
  RETURN collect(DISTINCT doc.title) AS documents
}
CALL (e) {
  OPTIONAL MATCH (m:Memory)-[r:HAS_SUBJECT|HAS_OBJECT]->(e)
  WHERE r.pending IS NULL AND NOT m:Pending
  RETURN count(DISTINCT m) AS memories
}
CALL (e) {
  OPTIONAL MATCH (s:Submission)-[r:MENTIONS]->(e)
  WHERE r.pending IS NULL AND NOT s:Pending
  RETURN count(DISTINCT s) AS submissions
}
RETURN e.type AS type, e.name AS name, documents, memories, submissions, creator.origin AS created_by_origin, e.delta_id AS delta_id
ORDER BY type, name;
