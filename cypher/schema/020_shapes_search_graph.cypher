// Shapes: definition nodes are found by their shape; a project's lineages by name; one version of a
// lineage per project (version_key = project|name|version), so two concurrent publishes of the same
// next version cannot both land.
CREATE INDEX entity_type_shape IF NOT EXISTS FOR (t:EntityType) ON (t.shape_id);
CREATE INDEX relationship_type_shape IF NOT EXISTS FOR (r:RelationshipType) ON (r.shape_id);
CREATE INDEX property_def_shape IF NOT EXISTS FOR (p:PropertyDef) ON (p.shape_id);
CREATE INDEX shape_project_name IF NOT EXISTS FOR (s:Shape) ON (s.project_id, s.name);
CREATE CONSTRAINT shape_version_key IF NOT EXISTS FOR (s:Shape) REQUIRE s.version_key IS UNIQUE;
// Search: entities by name, restricted to a project by its tenant token (as memory_text).
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (e:Entity) ON EACH [e.name, e.tenant]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
// Graph reads: a project's nodes in id order, for keyset pages.
CREATE INDEX knowledge_project_id IF NOT EXISTS FOR (n:Knowledge) ON (n.project_id, n.id);
