// A fragment, not a statement: included (src/db/cypher.ts) by memories/answered and memories/search (its whole
// answer). The committed relationships among and around the memories of `found` (a list of nodes: subject, object
// and any other), each once, as `edges`.
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
