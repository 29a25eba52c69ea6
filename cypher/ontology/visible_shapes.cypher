// The shapes that make up a project's ontology: published built-in shapes and the project's own
// committed, published (not retired) versions that no committed version supersedes. The project's
// shapes come first (newest first), then the built-in ones by name.
// The built-in ones by id and the project's by the (project_id, name) index, not a scan of every project's.
CALL () {
  MATCH (s:Shape) WHERE s.id IN $builtin_ids AND s.builtin = true
  RETURN s
  UNION
  // name IS NOT NULL (every shape has one) lets the planner seek the (project_id, name) index.
  MATCH (s:Shape) USING INDEX SEEK s:Shape(project_id, name)
  WHERE s.project_id = $project_id AND s.name IS NOT NULL AND NOT s:Pending
  RETURN s
}
WITH s WHERE s.status = 'published'
  AND NOT EXISTS {
    MATCH (newer:Shape)-[x:SUPERSEDES]->(s)
    WHERE x.pending IS NULL AND NOT newer:Pending
  }
RETURN s.id AS id
ORDER BY coalesce(s.builtin, false), s.created_at DESC, s.name, s.id
