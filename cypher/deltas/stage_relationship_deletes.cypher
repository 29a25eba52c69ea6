// Deletions of committed relationships (found from their start node), staged as change records with
// FROM / TO links and both end ids (revert restores the relationship even if an end was recreated).
MATCH (d:Delta {id: $delta_id})
UNWIND $deletes AS x
CALL (x) { MATCH (a:Knowledge {id: x.from}) USING INDEX a:Knowledge(id) RETURN a }
WITH d, x, a
WHERE a.project_id = $project_id AND NOT a:Pending
MATCH (a)-[r]->(b:Knowledge)
WHERE r.id = x.relationship_id AND r.pending IS NULL
CREATE (c:Change {id: x.change_id, delta_id: $delta_id, seq: x.seq, op: 'delete_relationship',
                  relationship_id: x.relationship_id, type: type(r), from_id: a.id, to_id: b.id})
CREATE (d)-[:HAS_CHANGE]->(c)
CREATE (c)-[:FROM]->(a)
CREATE (c)-[:TO]->(b)
RETURN count(c) AS staged
