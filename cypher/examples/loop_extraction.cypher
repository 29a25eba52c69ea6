// What a loop extracted: the loop, the status of the delta it stages into, and each entity its delta
// creates with its confidence, the iteration that found it and the documents it came from.
// Staged (:Pending) until the delta is applied. Parameters: $loop_id.
MATCH (l:Loop {id: $loop_id})-[:STAGES_INTO]->(d:Delta)
MATCH (d)-[:CREATED]->(e:Entity)
OPTIONAL MATCH (e)-[:EXTRACTED_FROM]->(doc:Document)
WITH l, d, e, collect(DISTINCT doc.title) AS documents
CALL (d, e) {
  OPTIONAL MATCH (e)-[r]->(other:Entity)
  WHERE r.delta_id = d.id
  RETURN collect(type(r) + ' ' + other.name) AS relationships
}
RETURN l.kind AS loop_kind, l.status AS loop_status, d.status AS delta_status, e.type AS type, e.name AS name,
       e.confidence AS confidence, e.loop_iteration AS iteration, documents, relationships
ORDER BY type, name;
