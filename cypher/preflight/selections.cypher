// Check: selections (warning).
// Detects the deletion of a memory that a committed briefing or context pack selected as evidence:
// (b:Briefing|ContextPack)-[:SELECTED]->(m:Memory). The briefing's digests rest on that memory, so
// deleting it makes them unreproducible. Context packs are saved by POST /v1/context/packs (a
// :ContextPack with pack_id and its hashes); any committed node with those labels and SELECTED
// relationships counts.
//   selected_memory_deleted
// Lookups: the delta's delete changes and the deleted memory's incoming SELECTED relationships.
// Run by hand (Neo4j Browser / cypher-shell):
//   :param delta_id => '<delta id>'
//   :param project_id => '<project id>'
//   :param now => '2026-01-01T00:00:00Z'
// then this statement.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})-[:HAS_CHANGE]->(c:Change {op: 'delete_node'})
USING INDEX d:Delta(id)
// Untyped on purpose: the planner can only expand from the change, never scan every TARGET.
MATCH (c)-[target]->(m:Memory)
WHERE type(target) = 'TARGET'
MATCH (m)<-[sel:SELECTED]-(b)
WHERE (b:Briefing OR b:ContextPack) AND NOT b:Pending AND sel.pending IS NULL
  AND NOT EXISTS { (b)<-[:TARGET]-(:Change {op: 'delete_node', delta_id: $delta_id}) }
WITH m, b, sel, CASE WHEN b:ContextPack THEN 'context pack' ELSE 'briefing' END AS kind
RETURN 'selections' AS check, 'warning' AS severity,
       'Memory ' + m.id + ' was selected as evidence by committed ' + kind + ' ' + b.id +
       coalesce(' (digest ' + b.digest + ')', ' (pack ' + b.pack_id + ')', '') + '; deleting it makes that ' + kind +
       ' impossible to reproduce. Supersede the memory instead, or set forget_after.' AS message,
       [m.id, b.id] AS node_ids, [] AS relationship_ids,
       {rule: 'selected_memory_deleted', memory_id: m.id, node_id: b.id, node_type: kind, pack_id: b.pack_id, ref: sel.ref} AS evidence
