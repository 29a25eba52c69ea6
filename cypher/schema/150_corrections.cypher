// Corrections and their preflight checks: a node's history by the change records that name it; the
// instances of a shape by shape_id (shape deletion and version checks start from the shape); entity
// types by label (the ontology check); memories' triples by predicate.
CREATE INDEX change_node_id IF NOT EXISTS FOR (c:Change) ON (c.node_id);
// A deletion's snapshot names the delta that created the node (old.delta_id): revert finds the later
// deletions of what a delta created by it (cypher/deltas/revert_dependents.cypher).
CREATE INDEX change_deleted_creator IF NOT EXISTS FOR (c:Change) ON (c.`old.delta_id`);
CREATE INDEX entity_shape_id IF NOT EXISTS FOR (e:Entity) ON (e.shape_id);
CREATE INDEX memory_shape_id IF NOT EXISTS FOR (m:Memory) ON (m.shape_id);
CREATE INDEX entity_type_label IF NOT EXISTS FOR (t:EntityType) ON (t.label);
CREATE INDEX relationship_type_type IF NOT EXISTS FOR (t:RelationshipType) ON (t.type);
