// The hops by meaning, first step (docs/recall.md, "Hops"): the project's terms nearest the question by meaning (its
// things, activities and names, not its people: a person starts the hops by name), through the vector index
// term_embedding (cosine), which spans every project and is asked for $k neighbours, filtered here to the project's
// terms with a vector of the current model and a cosine of at least $min_similarity (the index's score is
// (1 + cos) / 2). One row: how many neighbours the index gave, the cosine of the farthest, and the hits (each a
// term's key as `id`, and its similarity). memories/term_walk then walks from the nearest to the memories.
// The $k nearest: compared exactly in a project of at most $exact_up_to terms, else the index's.
// include: memories/held_terms
WITH vector_index, held, $vector AS question
// include: search/nearest
WITH count(*) AS found, min(score) AS floor,
  collect(CASE WHEN node.project_id = $project_id AND node.embedding_model = $model AND node.kind <> 'person'
      AND 2 * score - 1 >= $min_similarity
    THEN {id: node.key, similarity: 2 * score - 1} END) AS hits
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, hits
