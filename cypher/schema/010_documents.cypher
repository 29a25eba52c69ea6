// Documents: sources indexed for retrieval, their ordered chunks and the collections their tags map to.
CREATE INDEX document_project_created IF NOT EXISTS FOR (d:Document) ON (d.project_id, d.created_at);
CREATE INDEX chunk_document_index IF NOT EXISTS FOR (c:Chunk) ON (c.document_id, c.index);
// Ranked retrieval over chunk text (English analyzer), restricted to a project by its tenant token
// (src/db/tenant.ts luceneQuery). Not eventually consistent: Lucene is updated in the committing
// transaction, so a chunk is searchable as soon as its delta is applied (documents report ragReady).
CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (c:Chunk) ON EACH [c.text, c.tenant]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: false}};
// Collections (from tags) are unique per project and normalized name once committed.
CREATE CONSTRAINT collection_identity IF NOT EXISTS FOR (c:Collection) REQUIRE c.identity_key IS UNIQUE;
CREATE INDEX collection_project_name IF NOT EXISTS FOR (c:Collection) ON (c.project_id, c.normalized_name);
