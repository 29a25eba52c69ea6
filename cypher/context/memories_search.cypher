// Context candidates, memory plane, with a query: Lucene full-text within the project's tenant
// token; committed, recallable at $now, created by $as_of (when given), of the slice's kinds and
// inside its time window (date_observed, else created_at, when the window names date_observed).
// Where the project holds at least half of the index, the words are queried alone and `bare` says so
// with `whole` (as memories/search; src/db/fullText.ts). One row (none: the project has no memory in the
// index).
CALL db.index.fulltext.queryNodes('memory_text', $tenant_term, {limit: 1}) YIELD score AS share
WITH $lucene_bare IS NOT NULL AND share <= $bare_below AS bare
CALL (bare) {
  CALL db.index.fulltext.queryNodes('memory_text', CASE WHEN bare THEN $lucene_bare ELSE $lucene END,
                                    {limit: toInteger($candidates)}) YIELD node, score
  RETURN collect({node: node, score: score}) AS window
}
CALL (window) {
  UNWIND window AS w
  WITH w.node AS node, w.score AS score
  WHERE node.project_id = $project_id AND NOT node:Pending
    AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
    AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
    AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
    AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
    AND ($kinds IS NULL OR node.kind IN $kinds)
    AND ($episode IS NULL OR node.episode = $episode)
  WITH node, score, CASE WHEN $window_field = 'date_observed' AND node.date_observed IS NOT NULL
                         THEN datetime({date: node.date_observed}) ELSE node.created_at END AS t
  WHERE ($from IS NULL OR t >= datetime($from)) AND ($to IS NULL OR t <= datetime($to))
  WITH node, score
  ORDER BY score DESC, node.id
  LIMIT toInteger($limit)
  RETURN collect({id: node.id, name: node.name, text: node.content, kind: node.kind,
                  date_observed: toString(node.date_observed),
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
