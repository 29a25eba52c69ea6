// The graph as of a moment (docs/facts.md): every committed fact edge of the project that held at
// $at (valid time: valid_from at or before it, valid_to after it; an absent bound is open), with the
// memory it stands for.
// Parameters: $project_id, $at (an ISO date-time, e.g. "2020-06-01T00:00:00Z").
// The subjects are found as the project's Knowledge nodes (its index on project_id) and the memory by its
// id (unique on Knowledge): `(s:Entity)` and `(m:Memory {id: …})` would read every entity and memory.
MATCH (s:Knowledge {project_id: $project_id})-[r]->(o:Entity)
WHERE s:Entity AND r.project_id = $project_id AND r.memory_id IS NOT NULL AND r.pending IS NULL
  AND NOT s:Pending AND NOT o:Pending
  AND (r.valid_from IS NULL OR r.valid_from <= datetime($at))
  AND (r.valid_to IS NULL OR r.valid_to > datetime($at))
OPTIONAL MATCH (m:Knowledge {id: r.memory_id})
RETURN s.name AS subject, type(r) AS relationship, o.name AS object,
       toString(r.valid_from) AS valid_from, toString(r.valid_to) AS valid_to, m.content AS memory
ORDER BY subject, relationship, object;
