// Bridges: one name per project (name_key = project|name, staged or committed, so two concurrent
// creates of one name cannot both land); mappings by their bridge; mapped entities by their
// bridge and external id, the identity a map call resolves records by.
CREATE CONSTRAINT bridge_name_key IF NOT EXISTS FOR (b:Bridge) REQUIRE b.name_key IS UNIQUE;
CREATE INDEX bridge_project_created IF NOT EXISTS FOR (b:Bridge) ON (b.project_id, b.created_at);
CREATE INDEX bridge_mapping_bridge IF NOT EXISTS FOR (m:BridgeMapping) ON (m.bridge_id);
CREATE INDEX entity_bridge_external IF NOT EXISTS FOR (e:Entity) ON (e.bridge_id, e.external_id);
// Preflight: entity and relationship types of other shapes by label / type name.
CREATE INDEX entity_type_label IF NOT EXISTS FOR (t:EntityType) ON (t.label);
CREATE INDEX relationship_type_name IF NOT EXISTS FOR (r:RelationshipType) ON (r.type);
