// Entities near a question by meaning (vector index entity_embedding over name, type and a short
// description): the project's committed entities with a vector of the current model and a cosine of
// at least $min_similarity, optionally of given types (labels). One row: neighbours given, the
// farthest one's cosine, the hits.
// The $k nearest: compared exactly in a project of at most $exact_up_to entities, else the index's.
// include: search/held_entities
WITH vector_index, held, $vector AS question
// include: search/nearest
WITH count(*) AS found, min(score) AS floor,
  collect(CASE WHEN node.project_id = $project_id AND NOT node:Pending AND node.embedding_model = $model
      AND 2 * score - 1 >= $min_similarity
      AND ($types IS NULL OR any(l IN labels(node) WHERE l IN $types))
    THEN {id: node.id, entity: node {.*, embedding: null}, labels: labels(node), similarity: 2 * score - 1} END)
    AS hits
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, hits
