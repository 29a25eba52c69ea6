// The hops by meaning (docs/recall.md, "Hops"), in one statement: the project's terms nearest the question by meaning
// (its things, activities and names, not its people: a person starts the hops by name), then the walk from the
// nearest of them to the memories that mention them. Terms come through the vector index term_embedding (cosine),
// which spans every project and is asked for $k neighbours, filtered here to the project's terms with a vector of the
// current model and a cosine of at least $min_similarity (the index's score is (1 + cos) / 2); compared exactly in a
// project of at most $exact_up_to terms. The walk starts from the $walk_terms nearest (ties by key) whose cosine is
// within $walk_spread of the nearest's; each weighs (its cosine - (nearest's - $walk_spread)). A memory's walk is the
// sum, over the terms it mentions, of the term's weight times its rarity (1 / log2(2 + memories mentioning it)); a
// term more than $max_degree memories mention says little of any one of them and is not walked. The memories are the
// project's committed, still-recallable ones valid at $valid_at.
// One row: how many neighbours the index gave, the cosine of the farthest (so the caller knows whether asking deeper
// can find more terms), the terms near enough (`hits`: each term's key as `id`, and its similarity), and `walked`:
// the best $candidates memories by walk (ties: the nearer by its own cosine to the question, returned; null without a
// vector of $model), each with, when $links, what recall's channels read beside its text (memories/candidate_links).
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
  WITH t, weight, COUNT { (t)<-[:MENTIONS]-() } AS degree
  WHERE degree <= $max_degree
  MATCH (t)<-[:MENTIONS]-(node:Memory)
  WHERE NOT node:Pending
    AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
    AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
    AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
    AND ($kinds IS NULL OR node.kind IN $kinds)
    AND ($episode IS NULL OR node.episode = $episode)
  // A memory mentions a term once (the mention worker links each term of a text once: memories/terms_store).
  WITH node, sum(weight * log(2.0) / log(2.0 + degree)) AS walk
  // The cosine is read for the best twice $candidates only (a walk of 20 terms may reach thousands of memories).
  // Equal walks at that cut are taken in the store's own order (elementId, fixed while the graph is unchanged):
  // ordering thousands of memories by their id property cost a quarter of the walk at 100k memories.
  ORDER BY walk DESC, elementId(node)
  LIMIT toInteger($candidates) * 2
  WITH node, walk, CASE WHEN node.embedding_model = $model AND node.embedding IS NOT NULL
                     THEN vector.similarity.cosine(node.embedding, $vector) END AS similarity
  ORDER BY walk DESC, coalesce(similarity, -2.0) DESC, node.id
  LIMIT toInteger($candidates)
  RETURN collect({similarity: similarity, memory: node {.id, .name, .content}, links:
// include: memories/candidate_links
  }) AS walked
}
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, [hit IN hits | {id: hit.id, similarity: hit.similarity}] AS hits,
       walked
