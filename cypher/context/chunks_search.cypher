// Context candidates, document plane, with a query: ranked chunks of committed documents of the
// project (optionally of given documents or collections), created by $as_of, inside the window.
// Where the project holds at least half of the index, the words are queried alone and `bare` says so
// (src/db/fullText.ts), and `whole` whether its window held every hit the tenant query would have (it
// was all the project's, or short but not empty). One row (none: the project has nothing in the index).
CALL db.index.fulltext.queryNodes('chunk_text', $tenant_term, {limit: 1}) YIELD score AS share
WITH $lucene_bare IS NOT NULL AND share <= $bare_below AS bare
CALL (bare) {
  CALL db.index.fulltext.queryNodes('chunk_text', CASE WHEN bare THEN $lucene_bare ELSE $lucene END,
                                    {limit: toInteger($candidates)}) YIELD node, score
  RETURN collect({node: node, score: score}) AS window
}
CALL (window) {
  UNWIND window AS w
  WITH w.node AS node, w.score AS score
  WHERE node.project_id = $project_id AND NOT node:Pending
    AND ($document_ids IS NULL OR node.document_id IN $document_ids)
    AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
    AND ($from IS NULL OR node.created_at >= datetime($from)) AND ($to IS NULL OR node.created_at <= datetime($to))
  MATCH (d:Document)-[h:HAS_CHUNK]->(node)
  WHERE h.pending IS NULL AND NOT d:Pending
    AND ($tags IS NULL OR EXISTS {
      MATCH (d)-[c:IN_COLLECTION]->(col:Collection)
      WHERE c.pending IS NULL AND col.normalized_name IN $tags
    })
  WITH node, d, score
  ORDER BY score DESC, node.id
  LIMIT toInteger($limit)
  RETURN collect({id: node.id, title: d.title, chunk_index: node.index, text: node.text,
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
