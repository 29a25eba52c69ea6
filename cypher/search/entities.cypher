// Ranked entities (entity plane): Lucene full-text over entity names, limited to the project's
// tenant token in the query itself; committed entities only, optionally of given types (labels).
// Where the project holds at least half of the index, the words are queried alone and `bare` says so
// (src/db/fullText.ts), and `whole` whether its window held every hit the tenant query would have (it
// was all the project's, or short but not empty). One row (none: the project has nothing in the index), with each
// hit's relationships valid at $valid_at, at most $per_node + 1 (`around`: cypher/search/around_found.cypher).
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
    AND ($types IS NULL OR any(l IN labels(node) WHERE l IN $types))
  WITH node, score
  ORDER BY score DESC, node.id
  LIMIT toInteger($limit)
  RETURN collect({entity: node {.*, embedding: null}, labels: labels(node), score: score}) AS hits,
         collect(node) AS around_found
}
// include: search/around_found
RETURN bare,
       size(window) > 0 AND (size(window) < toInteger($candidates)
                             OR all(w IN window WHERE w.node.project_id = $project_id)) AS whole,
       hits, around
