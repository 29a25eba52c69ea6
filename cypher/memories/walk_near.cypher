// The hops by meaning (docs/recall.md, "Hops"), in one statement: the project's terms nearest the question by meaning
// (its things, activities and names, not its people: a person starts the hops by name), then the walk from the
// nearest of them to the memories that mention them. Terms come through the vector index term_embedding (cosine),
// which spans every project and is asked for $k neighbours, filtered here to the project's terms with a vector of the
// current model and a cosine of at least $min_similarity (the index's score is (1 + cos) / 2); compared exactly in a
// project of at most $exact_up_to terms. The walk starts from the $walk_terms nearest (ties by key) whose cosine is
// within $walk_spread of the nearest's; each weighs (its cosine - (nearest's - $walk_spread)); the walk from them is
// memories/walk_from_terms. A small project's walk is memories/walk_held, from the terms its caller compared with
// the question in process (src/memories/termVectors.ts); this statement serves a project of more terms, or one
// whose terms' vectors could not be held.
// One row: how many neighbours the index gave, the cosine of the farthest (so the caller knows whether asking deeper
// can find more terms), the terms near enough (`hits`: each term's key as `id`, and its similarity), and `walked`
// (memories/walk_from_terms).
// include: memories/held_terms
WITH vector_index, held, $vector AS question
// include: search/nearest
WITH count(*) AS found, min(score) AS floor,
  collect(CASE WHEN node.project_id = $project_id AND node.embedding_model = $model AND node.kind <> 'person'
      AND 2 * score - 1 >= $min_similarity
    THEN {id: node.key, similarity: 2 * score - 1, term: node} END) AS hits
CALL (hits) {
  UNWIND hits AS hit
  WITH hit ORDER BY hit.similarity DESC, hit.id LIMIT toInteger($walk_terms)
  WITH collect(hit) AS near
  UNWIND near AS hit
  WITH hit.term AS t, hit.similarity - (near[0].similarity - $walk_spread) AS weight
  WHERE weight > 0
  // include: memories/walk_from_terms
}
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, [hit IN hits | {id: hit.id, similarity: hit.similarity}] AS hits,
       walked
