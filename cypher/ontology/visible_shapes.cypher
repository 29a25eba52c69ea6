// The shapes that make up a project's ontology: published built-in shapes and the project's own
// committed, published (not retired) versions that no committed version supersedes. The project's
// shapes come first (newest first), then the built-in ones by name.
MATCH (s:Shape)
WHERE s.status = 'published' AND (s.builtin = true OR (s.project_id = $project_id AND NOT s:Pending))
  AND NOT EXISTS {
    MATCH (newer:Shape)-[x:SUPERSEDES]->(s)
    WHERE x.pending IS NULL AND NOT newer:Pending
  }
RETURN s.id AS id
ORDER BY coalesce(s.builtin, false), s.created_at DESC, s.name, s.id
