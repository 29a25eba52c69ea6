// Check: shape_relationships (shape violations on relationships).
// Every relationship the delta creates between two entities or memories is checked against the
// committed definitions of the shape of its start node (or, when that has no shape_id, of its end
// node): (:Shape)-[:DEFINES]->(:RelationshipType {type, from, to, cardinality}); from/to name an
// entity label, 'Entity' (any entity) or 'Memory'. Links to documents, chunks or contexts
// (provenance) and SUPERSEDES (lineage: a new version replacing an old one) are not the shape's.
//   relationship_not_allowed (error) no definition of this type between these two labels;
//   cardinality_exceeded     (error) after the merge the start node has more than one outgoing
//                                    relationship of this type (many_to_one, one_to_one), or the end
//                                    node more than one incoming (one_to_many, one_to_one).
// Counts after the merge: committed relationships plus this delta's pending ones, without those
// whose other end the delta deletes or that the delta deletes (a correction replacing a link). A shape without committed definitions is skipped; endpoints
// that are missing or deleted are the dangling check's business.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:HAS_CHANGE]->(c:Change {op: 'create_relationship'})
USING INDEX d:Delta(id)
MATCH (c)-[:FROM]->(a)
MATCH (c)-[:TO]->(b)
WHERE coalesce(a.shape_id, b.shape_id) IS NOT NULL
  AND (a:Entity OR a:Memory) AND (b:Entity OR b:Memory)
  AND c.type <> 'SUPERSEDES'
  AND NOT EXISTS { (a)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
  AND NOT EXISTS { (b)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
MATCH (s:Shape {id: coalesce(a.shape_id, b.shape_id)})
USING INDEX s:Shape(id)
WHERE NOT s:Pending AND (s.builtin = true OR s.project_id = $project_id)
  AND EXISTS { (s)-[:DEFINES]->(x) WHERE NOT x:Pending }
WITH c, a, b, s,
     CASE WHEN a:Memory THEN 'Memory' ELSE coalesce(a.type, head([l IN labels(a) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']])) END AS from_label,
     CASE WHEN b:Memory THEN 'Memory' ELSE coalesce(b.type, head([l IN labels(b) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']])) END AS to_label,
     COLLECT { MATCH (s)-[:DEFINES]->(rt:RelationshipType {type: c.type}) WHERE NOT rt:Pending RETURN rt ORDER BY rt.from, rt.to } AS defs
WITH c, a, b, s, from_label, to_label, defs,
     [rt IN defs WHERE (rt.from = from_label OR (rt.from = 'Entity' AND a:Entity))
                   AND (rt.to = to_label OR (rt.to = 'Entity' AND b:Entity))] AS allowed
CALL (c, a, b, s, from_label, to_label, defs, allowed) {
  // A fact edge (docs/facts.md: it carries the memory_id of the memory it stands for) of a type the
  // shape does not define is not a violation: the shape decides whether the type is known.
  WITH c, a, b, s, from_label, to_label, defs, allowed WHERE size(allowed) = 0
    AND NOT (size(defs) = 0 AND EXISTS { MATCH (a)-[x]->(b) WHERE x.id = c.relationship_id AND x.memory_id IS NOT NULL })
  RETURN 'relationship_not_allowed' AS rule, [a.id, b.id] AS node_ids, [c.relationship_id] AS relationship_ids,
         null AS cardinality, [rt IN defs | rt.from + '->' + rt.to] AS expected, from_label + '->' + to_label AS actual,
         CASE WHEN size(defs) = 0
           THEN 'Shape ' + s.name + ' has no relationship type ' + c.type + ' (' + from_label + ' ' + a.id + ' -> ' + to_label + ' ' + b.id + ').'
           ELSE 'Shape ' + s.name + ' allows ' + c.type + ' only as ' + reduce(t = '', rt IN defs | t + CASE WHEN t = '' THEN '' ELSE ', ' END + rt.from + '->' + rt.to) +
                ', not ' + from_label + '->' + to_label + ' (' + a.id + ' -> ' + b.id + ').'
         END AS message
  UNION ALL
  WITH c, a, s, from_label, head(allowed) AS rt
  WHERE rt.cardinality IN ['many_to_one', 'one_to_one']
  WITH c, a, s, from_label, rt,
       COLLECT { MATCH (a)-[x:$(c.type)]->(y)
                 WHERE (x.pending IS NULL OR x.delta_id = $delta_id)
                   AND NOT EXISTS { (y)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
                   AND NOT EXISTS { (a)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
                 RETURN coalesce(x.id, elementId(x)) AS id ORDER BY id } AS rels
  WHERE size(rels) > 1
  RETURN 'cardinality_exceeded' AS rule, [a.id] AS node_ids, rels[0..50] AS relationship_ids,
         rt.cardinality AS cardinality, 1 AS expected, size(rels) AS actual,
         from_label + ' ' + a.id + ' would have ' + toString(size(rels)) + ' outgoing ' + c.type + ' relationships; shape ' + s.name +
         ' allows one (' + rt.cardinality + '). Keep one.' AS message
  UNION ALL
  WITH c, b, s, to_label, head(allowed) AS rt
  WHERE rt.cardinality IN ['one_to_many', 'one_to_one']
  WITH c, b, s, to_label, rt,
       COLLECT { MATCH (b)<-[x:$(c.type)]-(y)
                 WHERE (x.pending IS NULL OR x.delta_id = $delta_id)
                   AND NOT EXISTS { (y)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
                   AND NOT EXISTS { (y)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
                 RETURN coalesce(x.id, elementId(x)) AS id ORDER BY id } AS rels
  WHERE size(rels) > 1
  RETURN 'cardinality_exceeded' AS rule, [b.id] AS node_ids, rels[0..50] AS relationship_ids,
         rt.cardinality AS cardinality, 1 AS expected, size(rels) AS actual,
         to_label + ' ' + b.id + ' would have ' + toString(size(rels)) + ' incoming ' + c.type + ' relationships; shape ' + s.name +
         ' allows one (' + rt.cardinality + '). Keep one.' AS message
}
RETURN 'shape_relationships' AS check, 'error' AS severity, message, node_ids, relationship_ids,
       {rule: rule, shape_id: s.id, relationship_type: c.type, cardinality: cardinality, expected: expected, actual: actual} AS evidence
