// The committed definition nodes of a project shape (entity types, their properties, relationship
// types), so deleting the shape deletes its whole definition in the same delta.
MATCH (s:Shape:Knowledge {id: $id})-[d:DEFINES]->(t:Knowledge)
USING INDEX s:Knowledge(id)
WHERE s.project_id = $project_id AND d.pending IS NULL AND NOT t:Pending
CALL (t) {
  RETURN t.id AS id
  UNION
  MATCH (t)-[h:HAS_PROPERTY]->(p:PropertyDef:Knowledge)
  WHERE h.pending IS NULL AND NOT p:Pending
  RETURN p.id AS id
}
RETURN DISTINCT id
