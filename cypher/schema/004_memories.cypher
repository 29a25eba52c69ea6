// Memories: ranked full-text recall (English analyzer: stemming), restricted to a project by its
// tenant token, and a per-project recency index for query-less recall.
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.content, m.name, m.tenant]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE INDEX memory_project_created IF NOT EXISTS FOR (m:Memory) ON (m.project_id, m.created_at);
CREATE CONSTRAINT shape_id IF NOT EXISTS FOR (s:Shape) REQUIRE s.id IS UNIQUE;
