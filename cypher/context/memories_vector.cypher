// Context candidates, memory plane, by meaning: the vector index's neighbours of the question
// (memory_embedding; it spans every project, so $k neighbours are asked and filtered here) that are
// the project's committed memories with a vector of the current model, at least $min_similarity
// (cosine), recallable at $now, created by $as_of, of the slice's kinds and inside its window.
// One row: neighbours given, the farthest one's cosine, the hits (src/search/meaning.ts).
// The $k nearest: compared exactly in a project of at most $exact_up_to memories, else the index's.
// include: search/held_memories
WITH vector_index, held, $vector AS question
// include: search/nearest
WITH node, score, CASE WHEN $window_field = 'date_observed' AND node.date_observed IS NOT NULL
                       THEN datetime({date: node.date_observed}) ELSE node.created_at END AS t
WITH count(*) AS found, min(score) AS floor,
  collect(CASE WHEN node.project_id = $project_id AND NOT node:Pending AND node.embedding_model = $model
      AND 2 * score - 1 >= $min_similarity
      AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
      AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
      AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
      AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
      AND ($kinds IS NULL OR node.kind IN $kinds)
      AND ($episode IS NULL OR node.episode = $episode)
      AND ($from IS NULL OR t >= datetime($from)) AND ($to IS NULL OR t <= datetime($to))
    THEN {id: node.id, name: node.name, text: node.content, kind: node.kind,
          date_observed: toString(node.date_observed),
          created_ms: CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END,
          similarity: 2 * score - 1} END) AS hits
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, hits
