// The relationship types the shapes visible to a project declare (built-in ones and the project's own,
// committed and not retired), with the phrases that say them: a fact's predicate takes the type a
// phrase names (docs/facts.md). A type several shapes declare comes once per shape; one_at_a_time
// reads its definition as the contradictions check does (temporal, else cardinality).
MATCH (sh:Shape)-[:DEFINES]->(rt:RelationshipType)
WHERE (sh.builtin = true OR sh.project_id = $project_id) AND NOT sh:Pending AND NOT rt:Pending
  AND coalesce(sh.status, 'published') <> 'retired'
RETURN rt.type AS type, coalesce(rt.patterns, []) AS patterns, sh.builtin = true AS builtin,
       coalesce(rt.temporal = 'single_valued_at_a_time',
                rt.cardinality IN ['many_to_one', 'one_to_one']) AS one_at_a_time
ORDER BY type, builtin, sh.id
