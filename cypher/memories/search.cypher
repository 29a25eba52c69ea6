// Ranked recall: Lucene full-text over content and name, limited to the project's tenant token in
// the query itself; then committed and still-recallable memories valid at $valid_at (as_of, else now; docs/facts.md) only.
// A candidate carries only what ranking reads (its id, and the name and content an identifier is looked
// for in): the answer's few memories are read whole once the rankings are fused, by memories/answered
// (recall) or search/answered (/v1/search). Reading every property of all candidates (limit x 4 + 20)
// cost more than the full-text lookup itself (issue 27).
// Where the project holds at least half of the index ($tenant_term scores at most $bare_below), the words
// are queried alone ($lucene_bare) and the project's hits kept here; `bare` says so, and `whole` whether
// that window held every hit the tenant query would have (it was short, or all the project's; never when
// empty: words the analyzer drops entirely, such as "the", leave the tenant query every memory). The caller
// asks again with the tenant clause when neither it was whole nor $limit came back (src/db/fullText.ts).
// $whole: each hit carries the memory whole (the properties memories/answered reads) and the row the committed
// relationships among and around the hits (`edges`, null otherwise): for a search answered in the words' own rank
// order (src/memories/recall.ts), whose hits are its answer, so no memories/answered follows.
// $around (/v1/search): each hit carries the memory whole too, and the row each hit's relationships valid at
// $valid_at, at most $per_node + 1 (`around`, null otherwise: cypher/search/around_found.cypher).
// $links: each hit carries what recall's channels read beside its text (memories/candidate_links).
// No row: the project has no memory in the index. The row also carries the request's standing check ($standing,
// or null; answered as `standing`: src/db/graph.ts, carriesStanding), so a search pays no statement for it.
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
    AND ($kinds IS NULL OR node.kind IN $kinds)
    AND ($episode IS NULL OR node.episode = $episode)
  WITH node, score
  ORDER BY score DESC, node.id
  LIMIT toInteger($limit)
  RETURN collect({memory: CASE WHEN $whole OR $around
                    THEN node {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name,
                               .predicate, .object_name, .source_context, .forget_after, .forget_reason, .valid_from,
                               .valid_to, .date_observed, .observed_at, .episode, .created_at, .updated_at}
                    ELSE node {.id, .name, .content} END,
                  score: score,
                  links:
// include: memories/candidate_links
                 }) AS hits,
         collect(node) AS nodes
}
WITH *, CASE WHEN $whole THEN nodes ELSE [] END AS found, CASE WHEN $around THEN nodes ELSE [] END AS around_found
// include: memories/edges_of_found
// include: search/around_found
// include: auth/standing_subquery
RETURN standing, bare, CASE WHEN $whole THEN edges END AS edges, CASE WHEN $around THEN around END AS around,
       size(window) > 0 AND (size(window) < toInteger($candidates)
                             OR all(w IN window WHERE w.node.project_id = $project_id)) AS whole,
       hits
