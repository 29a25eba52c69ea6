// New relationships of a delta: marked pending = true and tied to a :Change record (FROM, TO).
// With $committed (a write applied at once) they are written committed. Endpoints must be committed nodes of the project or nodes of this same delta. Each endpoint is
// found in its own subquery, so it is always a unique-index seek on :Knowledge(id), whatever the
// filters after it (inlined, the planner may scan the project instead).
MATCH (d:Delta {id: $delta_id})
UNWIND $rels AS x
CALL (x) { MATCH (a:Knowledge {id: x.from}) USING INDEX a:Knowledge(id) RETURN a }
CALL (x) { MATCH (b:Knowledge {id: x.to}) USING INDEX b:Knowledge(id) RETURN b }
WITH d, x, a, b
WHERE a.project_id = $project_id AND b.project_id = $project_id
  AND (NOT a:Pending OR a.delta_id = $delta_id)
  AND (NOT b:Pending OR b.delta_id = $delta_id)
CREATE (a)-[r:$(x.type)]->(b)
SET r = x.props, r.id = x.id, r.pending = CASE WHEN $committed THEN null ELSE true END, r.delta_id = $delta_id, r.project_id = $project_id,
    r.created_at = datetime($now)
CREATE (c:Change {id: x.change_id, delta_id: $delta_id, seq: x.seq, op: 'create_relationship',
                  relationship_id: x.id, type: x.type})
CREATE (d)-[:HAS_CHANGE]->(c)
CREATE (c)-[:FROM]->(a)
CREATE (c)-[:TO]->(b)
RETURN count(r) AS staged
