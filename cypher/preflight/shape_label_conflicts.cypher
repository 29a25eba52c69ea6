// Check: shape_label_conflicts (warning).
// An entity type the delta defines (a new shape or shape version, e.g. one a bridge proposes) whose
// label another committed shape visible to the project defines with other properties: two meanings
// of one Neo4j label. Earlier versions of the same shape (same name) are not "another shape".
// effect: when the version this one supersedes (committed, not retired) already defined the label
// differently from the other shape, the condition held before the delta: keeping that definition, or
// only adding optional properties to it that the other shape does not type otherwise, touches it (not
// counted toward the disposition: the label keeps the meanings it had, one of them with more to say);
// giving the label yet another meaning (a property dropped or retyped, a required one added, or one the
// other shape types otherwise) worsens it; otherwise the delta introduces it.
// Cost: the entity types the delta creates, and the committed types of that label.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:CREATED]->(t:EntityType)
USING INDEX d:Delta(id)
MATCH (s:Shape {id: t.shape_id})
USING INDEX s:Shape(id)
MATCH (o:EntityType {label: t.label})<-[:DEFINES]-(other:Shape)
USING INDEX SEEK o:EntityType(label)
WHERE NOT o:Pending AND NOT other:Pending AND other.name <> s.name
  AND (other.builtin = true OR other.project_id = $project_id) AND coalesce(other.status, 'published') <> 'retired'
WITH t, s, other,
     COLLECT { MATCH (t)-[:HAS_PROPERTY]->(p) RETURN p.name + ':' + p.type AS x ORDER BY x } AS mine,
     COLLECT { MATCH (o)-[:HAS_PROPERTY]->(p) WHERE NOT p:Pending RETURN p.name + ':' + p.type AS x ORDER BY x } AS theirs
WHERE mine <> theirs
CALL (t, s, theirs) {
  OPTIONAL MATCH (s)-[:SUPERSEDES]->(prev:Shape)-[:DEFINES]->(pt:EntityType {label: t.label})
  WHERE NOT prev:Pending AND NOT pt:Pending AND coalesce(prev.status, 'published') <> 'retired'
  WITH pt, COLLECT { MATCH (pt)-[:HAS_PROPERTY]->(p) WHERE NOT p:Pending RETURN p.name + ':' + p.type AS x ORDER BY x } AS before
  WITH theirs, collect(CASE WHEN pt IS NOT NULL THEN before END) AS defined
  RETURN [b IN defined WHERE b <> theirs] AS befores
}
// An optional addition: a property of this version that the previous one lacks, not required here, and
// not one the other shape defines with another type.
WITH t, s, other, mine, theirs, befores,
     [x IN mine WHERE NOT split(x, ':')[0] IN coalesce(t.required, [])
                  AND NOT any(y IN theirs WHERE split(y, ':')[0] = split(x, ':')[0] AND y <> x)] AS optional
WITH t, s, other, mine, theirs, size(befores) = 0 AS fresh, mine IN befores AS kept,
     any(b IN befores WHERE all(x IN b WHERE x IN mine) AND all(x IN mine WHERE x IN b OR x IN optional)) AS extended
WITH t, s, other, mine, theirs, kept,
     CASE WHEN fresh THEN 'introduces' WHEN extended THEN 'touches' ELSE 'worsens' END AS effect
RETURN 'shape_label_conflicts' AS check, 'warning' AS severity, effect,
       'Shape ' + s.name + ' defines ' + t.label + ' with properties other than shape ' + other.name + ' (' + other.id +
       ') does: one label would carry two meanings. Rename the type or align the definitions.' +
       CASE WHEN effect = 'touches' AND kept THEN ' The previous version already defined it so: not charged to this delta.'
            WHEN effect = 'touches' THEN ' The previous version already defined it differently; this one only adds optional properties: not charged to this delta.'
            WHEN effect = 'worsens' THEN ' The previous version already defined it differently: this gives it one more meaning.'
            ELSE '' END AS message,
       [t.id, s.id, other.id] AS node_ids, [] AS relationship_ids,
       {rule: 'label_defined_differently', entity_label: t.label, shape_id: s.id, other_shape_id: other.id,
        properties: mine, other_properties: theirs} AS evidence
