// Context candidates, entity plane, by meaning: the question's neighbours in entity_embedding that
// are committed entities of the project with a vector of the current model, at least
// $min_similarity (cosine), created by $as_of, optionally of given types or shapes. Entities are not
// time-windowed. One row: neighbours given, the farthest one's cosine, the hits.
// The $k nearest: compared exactly in a project of at most $exact_up_to entities, else the index's.
// include: search/held_entities
WITH vector_index, held, $vector AS question
// include: search/nearest
WITH count(*) AS found, min(score) AS floor,
  collect(CASE WHEN node.project_id = $project_id AND NOT node:Pending AND node.embedding_model = $model
      AND 2 * score - 1 >= $min_similarity
      AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
      AND ($types IS NULL OR any(l IN labels(node) WHERE l IN $types))
      AND ($shape_ids IS NULL OR node.shape_id IN $shape_ids)
    THEN {id: node.id, name: node.name,
          label: coalesce(node.type, [l IN labels(node) WHERE NOT l IN ['Knowledge', 'Entity']][0], 'Entity'),
          text: node.description,
          created_ms: CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END,
          similarity: 2 * score - 1} END) AS hits
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, hits
