// A fragment, not a statement: included (src/db/cypher.ts) by the word statements of /v1/search (memories/search
// with $around, search/chunks, search/entities). For each node of `around_found` (the statement's hits), its
// committed relationships to other committed nodes of the project valid at $valid_at (docs/facts.md), at most
// $per_node + 1 of them in no order, as `around`: one entry per hit, {id, edges}. A hit with at most $per_node has
// them all, which is what search/answered would answer for it; one with more is read again by search/answered, whose
// $per_node are the results' own edges first (src/search/service.ts). So a search whose answer is among its word
// hits needs no statement after the fusion (issue 27). The edges are in search/answered's shape, with `key` (the
// relationship's element id) to tell them apart.
CALL (around_found) {
  UNWIND around_found AS m
  CALL (m) {
    // Expanded from m, o's label tested as a value: as in search/answered.
    MATCH (m)-[r]-(o)
    WHERE r.pending IS NULL AND 'Knowledge' IN labels(o) AND NOT o:Pending AND o.project_id = $project_id
      AND (r.valid_from IS NULL OR r.valid_from <= datetime($valid_at))
      AND (r.valid_to IS NULL OR r.valid_to > datetime($valid_at))
    WITH r
    LIMIT toInteger($per_node) + 1
    WITH r, startNode(r) AS a, endNode(r) AS b
    RETURN collect({key: elementId(r), id: r.id, type: type(r), source: a.id, target: b.id,
                    source_label: [l IN labels(a) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0],
                    source_name: a.name,
                    target_label: [l IN labels(b) WHERE NOT l IN ['Knowledge', 'Pending', 'Entity']][0],
                    target_name: b.name, properties: properties(r)}) AS edges
  }
  RETURN collect({id: m.id, edges: edges}) AS around
}
