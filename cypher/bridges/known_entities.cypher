// Committed entities a bridge mapped, by label and external id, with their properties and the
// relationships of the given types they already have (type and target id). Not the entity's vector: a mapping
// compares the source's fields with the entity's, never the vector (384 numbers per entity over Bolt otherwise).
UNWIND $refs AS ref
MATCH (e:Entity {bridge_id: $bridge_id, external_id: ref.external_id})
WHERE e.project_id = $project_id AND e.type = ref.label AND NOT e:Pending
RETURN ref.label AS label, ref.external_id AS external_id, e.id AS id, e {.*, embedding: null} AS props,
       COLLECT { MATCH (e)-[r]->(t:Entity) WHERE type(r) IN $types AND r.pending IS NULL RETURN type(r) + ' ' + t.id } AS out_edges,
       COLLECT { MATCH (e)<-[r]-(t:Entity) WHERE type(r) IN $types AND r.pending IS NULL RETURN type(r) + ' ' + t.id } AS in_edges
