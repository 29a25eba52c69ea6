// The hops by meaning of a small project (docs/recall.md, "Hops by meaning"): the walk from the terms its caller
// compared with the question in process (src/memories/termVectors.ts), $walk.near: [{key, weight}], each weighing as
// in memories/walk_near. Its caller held the vectors of the terms $walk.held names (their keys in key order: every
// term of the project with a vector of $model, as memories/term_vectors read them); the walk is taken only while
// those are still the project's terms with such a vector (`current`), so an answer is the one the exact compare in
// the statement would give. Otherwise `current` is false, `walked` empty, and the caller reads the vectors again. The
// check reads the terms' keys through their (project_id, key) index, not their vectors: a 307-term project's compare
// in the statement cost 17 ms at p50 on the 100k bench, the check about 1 ms. The two lists come in one map: Neo4j
// plans a statement apart for each order of magnitude of a list parameter's length (src/db/warming.ts, sizeClass),
// not of a list inside a map, so the read paths' rehearsal (src/search/warmReads.ts) plans it for every project.
// include: memories/project_terms
WITH collect(CASE WHEN few.embedding_model = $model AND few.embedding IS NOT NULL THEN few.key END) = $walk.held AS current
CALL (current) {
  WITH current WHERE current
  UNWIND $walk.near AS hit
  MATCH (t:Term) USING INDEX t:Term(project_id, key)
  WHERE t.project_id = $project_id AND t.key = hit.key
  WITH t, hit.weight AS weight
  // include: memories/walk_from_terms
}
RETURN current, walked
