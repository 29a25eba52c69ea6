// Slices: a project's lineages by name, and one version of a lineage per project (version_key =
// project|name|version), so two concurrent creates or publishes of the same version cannot both land.
CREATE INDEX slice_project_name IF NOT EXISTS FOR (s:Slice) ON (s.project_id, s.name);
CREATE CONSTRAINT slice_version_key IF NOT EXISTS FOR (s:Slice) REQUIRE s.version_key IS UNIQUE;
// Context compiles without a query take the most recent chunks and entities of a project.
CREATE INDEX chunk_project_created IF NOT EXISTS FOR (c:Chunk) ON (c.project_id, c.created_at);
CREATE INDEX entity_project_created IF NOT EXISTS FOR (e:Entity) ON (e.project_id, e.created_at);
