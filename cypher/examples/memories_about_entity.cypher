// Memories about one entity (as subject or object), newest observation first, with the other end of
// the statement when there is one. The name is matched case-insensitively on the normalized name.
// Committed graph only. Parameters: $project_id, $name.
MATCH (e:Entity {project_id: $project_id})
WHERE NOT e:Pending AND (e.normalized_name = toLower(trim($name)) OR toLower(e.name) = toLower(trim($name)))
MATCH (m:Memory)-[r:HAS_SUBJECT|HAS_OBJECT]->(e)
WHERE NOT m:Pending AND r.pending IS NULL
OPTIONAL MATCH (m)-[o:HAS_SUBJECT|HAS_OBJECT]->(other:Entity)
WHERE other <> e AND o.pending IS NULL
RETURN e.name AS entity, type(r) AS role, m.kind AS kind, m.content AS content, m.predicate AS predicate,
       other.name AS other_entity, m.date_observed AS observed, m.id AS memory_id
ORDER BY observed DESC, m.created_at DESC;
