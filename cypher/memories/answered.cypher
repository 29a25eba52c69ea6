// The memories a recall answers, in one statement once the rankings are fused: each read whole (committed
// memories of the project; the caller keeps its own order), unless the caller already holds it ($known:
// what known_at puts back, or what memories/recent read), and the committed relationships among and around
// them all (subject, object and any other), each once. One statement instead of two saves a session and a
// statement per search (issue 27). The properties are listed, not `m {.*}`: that would read the 384-number
// vector only to drop it (docs/embeddings.md, "Vectors in the graph").
UNWIND $ids AS id
MATCH (m:Knowledge {id: id})
USING INDEX m:Knowledge(id)
WITH collect(m) AS found
CALL (found) {
  UNWIND found AS m
  // Expanded from m: o's label is tested as a value ('Knowledge' IN labels(o)), not as a label predicate, which
  // would let the planner seek every node of the project by the Knowledge index and join them (it did, on a
  // small graph).
  MATCH (m)-[r]-(o)
  WHERE r.pending IS NULL AND 'Knowledge' IN labels(o) AND NOT o:Pending AND o.project_id = m.project_id
  WITH DISTINCT r, startNode(r) AS a, endNode(r) AS b
  ORDER BY type(r), a.id, b.id, r.id
  RETURN collect({id: r.id, type: type(r), source: a.id, target: b.id,
                  source_label: [l IN labels(a) WHERE NOT l IN ['Knowledge']][0], source_name: a.name,
                  target_label: [l IN labels(b) WHERE NOT l IN ['Knowledge']][0], target_name: b.name,
                  properties: properties(r)}) AS edges
}
RETURN [m IN found WHERE m:Memory AND m.project_id = $project_id AND NOT m:Pending AND NOT m.id IN $known |
        m {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
           .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to, .date_observed,
           .created_at, .updated_at}] AS memories,
       edges
