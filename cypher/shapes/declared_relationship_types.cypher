// The relationship types the shapes visible to a project declare (the built-in ones, by id, and the
// project's own, by the project index; committed and not retired), with the phrases that say them: a
// fact's predicate takes the type a phrase names (docs/facts.md). A type several shapes declare comes
// once per shape; one_at_a_time reads its definition as the contradictions check does (temporal, else
// cardinality).
CALL () {
  MATCH (sh:Shape) WHERE sh.id IN $builtin_ids AND sh.builtin = true
  RETURN sh
  UNION
  // name IS NOT NULL (every shape has one) lets the planner seek the (project_id, name) index.
  MATCH (sh:Shape) WHERE sh.project_id = $project_id AND sh.name IS NOT NULL
  RETURN sh
}
WITH sh WHERE NOT sh:Pending AND coalesce(sh.status, 'published') <> 'retired'
MATCH (sh)-[:DEFINES]->(rt:RelationshipType)
WHERE NOT rt:Pending
RETURN rt.type AS type, coalesce(rt.patterns, []) AS patterns, sh.builtin = true AS builtin,
       coalesce(rt.temporal = 'single_valued_at_a_time',
                rt.cardinality IN ['many_to_one', 'one_to_one']) AS one_at_a_time
ORDER BY type, builtin, sh.id
