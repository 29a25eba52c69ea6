// What a search answers once the rankings are fused, in one statement: the committed relationships around
// the results $ids (for each, at most $per_node of its relationships to other committed nodes of the project
// valid at $valid_at (docs/facts.md), those to any of the search's results $results first), and the memories
// among the results read whole ($whole: a memory ranking carries only its id, name and content). One statement
// instead of two (search/edges and memories/by_ids) saves a session and a statement per search (issue 27).
// $ids are the results whose edges the word statements did not read already (cypher/search/around_found.cypher:
// a hit of the meaning side only, or one with more than $per_node); `key` tells an edge read twice apart.
// The memory properties are listed, not `node {.*}`: that would read the 384-number vector only to drop it.
CALL () {
  UNWIND $ids AS id
  MATCH (m:Knowledge {id: id})
  USING INDEX m:Knowledge(id)
  WHERE m.project_id = $project_id
  CALL (m) {
    // Expanded from m: o's label is tested as a value ('Knowledge' IN labels(o)), not as a label predicate,
    // which would let the planner seek every node of the project by the Knowledge index and join them (it did,
    // on a small graph).
    MATCH (m)-[r]-(o)
    WHERE r.pending IS NULL AND 'Knowledge' IN labels(o) AND NOT o:Pending AND o.project_id = $project_id
      AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at))
      AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
    WITH r, o
    ORDER BY CASE WHEN o.id IN $results THEN 0 ELSE 1 END, type(r), o.id
    LIMIT toInteger($per_node)
    RETURN r
  }
  WITH DISTINCT r
  WITH r, startNode(r) AS a, endNode(r) AS b
  ORDER BY type(r), a.id, b.id, r.id
  RETURN collect({key: elementId(r), id: r.id, type: type(r), source: a.id, target: b.id,
                  source_label: [l IN labels(a) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0], source_name: a.name,
                  target_label: [l IN labels(b) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0], target_name: b.name,
                  properties: properties(r)}) AS edges
}
CALL () {
  UNWIND $whole AS id
  MATCH (node:Knowledge {id: id})
  USING INDEX node:Knowledge(id)
  WHERE node:Memory AND node.project_id = $project_id AND NOT node:Pending
  RETURN collect(node {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
                 .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to,
                 .date_observed, .observed_at, .episode, .created_at, .updated_at}) AS memories
}
RETURN edges, memories
