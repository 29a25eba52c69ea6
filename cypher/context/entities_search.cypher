// Context candidates, entity plane, with a query: ranked committed entities of the project created
// by $as_of, optionally of given types (labels) or shapes. Entities are not time-windowed.
// Where the project holds at least half of the index, the words are queried alone and `bare` says so
// (src/db/fullText.ts), and `whole` whether its window held every hit the tenant query would have (it
// was all the project's, or short but not empty). One row (none: the project has nothing in the index).
CALL db.index.fulltext.queryNodes('entity_text', $tenant_term, {limit: 1}) YIELD score AS share
WITH $lucene_bare IS NOT NULL AND share <= $bare_below AS bare
CALL (bare) {
  CALL db.index.fulltext.queryNodes('entity_text', CASE WHEN bare THEN $lucene_bare ELSE $lucene END,
                                    {limit: toInteger($candidates)}) YIELD node, score
  RETURN collect({node: node, score: score}) AS window
}
CALL (window) {
  UNWIND window AS w
  WITH w.node AS node, w.score AS score
  WHERE node.project_id = $project_id AND NOT node:Pending
    AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
    AND ($types IS NULL OR any(l IN labels(node) WHERE l IN $types))
    AND ($shape_ids IS NULL OR node.shape_id IN $shape_ids)
  WITH node, score
  ORDER BY score DESC, node.id
  LIMIT toInteger($limit)
  RETURN collect({id: node.id, name: node.name,
                  label: coalesce(node.type, [l IN labels(node) WHERE NOT l IN ['Knowledge', 'Entity']][0], 'Entity'),
                  text: node.description,
                  created_ms: CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END,
                  score: score}) AS hits
}
// The request's standing check ($standing, or null; answered as `standing`: src/db/graph.ts, carriesStanding):
// the first of a compile's plane statements to go out carries it, so a compile pays no statement for it.
// include: auth/standing_subquery
RETURN standing, bare,
       size(window) > 0 AND (size(window) < toInteger($candidates)
                             OR all(w IN window WHERE w.node.project_id = $project_id)) AS whole,
       hits
