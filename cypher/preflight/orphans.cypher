// Check: orphans (warning).
// Detects an entity or memory the delta creates that would have no relationship at all after the merge, while
// its shape does not list its label in orphans_allowed (the memory shape allows Memory and
// Concept). Only domain relationships count: provenance links (EXTRACTED_FROM to a chunk, MENTIONS
// from a submission or chunk) do not make a node part of the graph. Nodes without shape_id, and
// shapes without committed definitions, are not judged.
//   orphan_not_allowed  a node the delta creates with no domain relationship after the merge;
//   orphaned_by_delete  a committed node at either end of a relationship the delta deletes, or next to a
//                       node it deletes (whose relationships go with it), that is left with no domain
//                       relationship once the relationships and the nodes the delta deletes are gone (and
//                       the delta adds none).
// Relationships among engine records (SELECTED from a context pack or briefing, FOCUSES_ON from a
// slice) are no domain relationships either. A MENTIONS from a memory or submission the same delta
// creates does count for the entities it names: the statement that stages them is what connects them
// ("Ada Lovelace met Charles Babbage in London." as a submission stages two people and a place that
// nothing else links; docs/preflight.md).
// Lookups: the delta's CREATED nodes and delete_relationship changes, Shape.id (unique), the node's
// own relationships.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
CALL (d) {
  MATCH (d)-[:CREATED]->(n)
  // Labels tested through labels(n) on purpose: with n:Entity OR n:Memory the planner may scan the
  // shape_id indexes of both labels and join them to the delta, when its statistics say they are small.
  WHERE n.shape_id IS NOT NULL AND any(l IN labels(n) WHERE l IN ['Entity', 'Memory'])
  RETURN n, 'orphan_not_allowed' AS rule
  UNION
  CALL (d) {
    MATCH (d)-[:HAS_CHANGE]->(c:Change {op: 'delete_relationship'})
    // Untyped on purpose: the planner can only expand from the change, never scan every FROM or TO.
    MATCH (c)-[end]->(n)
    WHERE type(end) IN ['FROM', 'TO']
    RETURN n
    UNION
    // A node the delta deletes takes its relationships with it (detach): its neighbours lose them too.
    MATCH (d)-[:HAS_CHANGE]->(:Change {op: 'delete_node'})-[:TARGET]->(gone)
    MATCH (gone)-[x]-(n)
    WHERE x.pending IS NULL AND NOT type(x) IN ['EXTRACTED_FROM', 'MENTIONS', 'SELECTED', 'FOCUSES_ON']
    RETURN n
  }
  WITH n
  WHERE n.shape_id IS NOT NULL AND any(l IN labels(n) WHERE l IN ['Entity', 'Memory']) AND NOT n:Pending
    AND NOT EXISTS { (n)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
    // What stays: committed domain relationships, out and in, that the delta does not delete (a
    // deletion is found from the relationship's start node) to nodes it does not delete.
    AND NOT EXISTS { (n)-[x]->(y:Knowledge)
                     WHERE x.pending IS NULL AND NOT y:Pending
                       AND NOT type(x) IN ['EXTRACTED_FROM', 'MENTIONS', 'SELECTED', 'FOCUSES_ON']
                       AND NOT EXISTS { (n)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
                       AND NOT EXISTS { (y)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) } }
    AND NOT EXISTS { (n)<-[x]-(y:Knowledge)
                     WHERE x.pending IS NULL AND NOT y:Pending
                       AND NOT type(x) IN ['EXTRACTED_FROM', 'MENTIONS', 'SELECTED', 'FOCUSES_ON']
                       AND NOT EXISTS { (y)<-[:FROM]-(:Change {op: 'delete_relationship', delta_id: $delta_id, relationship_id: x.id}) }
                       AND NOT EXISTS { (y)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) } }
  RETURN n, 'orphaned_by_delete' AS rule
}
WITH n, rule
MATCH (s:Shape {id: n.shape_id})
USING INDEX s:Shape(id)
WHERE NOT s:Pending AND (s.builtin = true OR s.project_id = $project_id)
  AND EXISTS { (s)-[:DEFINES]->(x) WHERE NOT x:Pending }
WITH n, s, rule,
     CASE WHEN n:Memory THEN 'Memory' ELSE coalesce(n.type, head([l IN labels(n) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']])) END AS label
WHERE NOT label IN coalesce(s.orphans_allowed, [])
  AND NOT EXISTS { (n)-[x]-(y)
                   WHERE x.pending = true AND x.delta_id = $delta_id
                     AND (NOT type(x) IN ['EXTRACTED_FROM', 'MENTIONS', 'SELECTED', 'FOCUSES_ON']
                          OR (type(x) = 'MENTIONS' AND y.delta_id = $delta_id
                              AND any(l IN labels(y) WHERE l IN ['Submission', 'Memory'])))
                     AND NOT EXISTS { (y)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) } }
RETURN 'orphans' AS check, 'warning' AS severity,
       label + ' ' + coalesce(n.name, n.id) + ' (' + n.id + ') would have no relationship' +
       CASE rule WHEN 'orphaned_by_delete' THEN ' once this delta deletes its last ones' ELSE '' END +
       ', and shape ' + s.name + ' allows unconnected nodes only of ' +
       CASE WHEN size(coalesce(s.orphans_allowed, [])) = 0 THEN 'no type'
            ELSE reduce(t = '', l IN s.orphans_allowed | t + CASE WHEN t = '' THEN '' ELSE ', ' END + l) END +
       '. Connect it or drop it.' AS message,
       [n.id] AS node_ids, [] AS relationship_ids,
       {rule: rule, shape_id: s.id, entity_label: label, expected: coalesce(s.orphans_allowed, [])} AS evidence
