// Every governed node carries :Knowledge (unique id, project) beside its own labels (:Memory, :Entity:Person, ...).
CREATE CONSTRAINT knowledge_id IF NOT EXISTS FOR (n:Knowledge) REQUIRE n.id IS UNIQUE;
CREATE INDEX knowledge_project IF NOT EXISTS FOR (n:Knowledge) ON (n.project_id);
// Committed entities are unique per project, type and normalized identity; pending ones keep pending_identity_key.
CREATE CONSTRAINT entity_identity IF NOT EXISTS FOR (e:Entity) REQUIRE e.identity_key IS UNIQUE;
CREATE INDEX entity_pending_identity IF NOT EXISTS FOR (e:Entity) ON (e.pending_identity_key);
CREATE INDEX entity_project_name IF NOT EXISTS FOR (e:Entity) ON (e.project_id, e.normalized_name);
// Deltas and their change records.
CREATE CONSTRAINT delta_id IF NOT EXISTS FOR (d:Delta) REQUIRE d.id IS UNIQUE;
CREATE INDEX delta_project_created IF NOT EXISTS FOR (d:Delta) ON (d.project_id, d.created_at);
CREATE CONSTRAINT change_id IF NOT EXISTS FOR (c:Change) REQUIRE c.id IS UNIQUE;
