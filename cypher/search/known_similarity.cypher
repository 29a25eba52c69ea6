// known_at (docs/facts.md): the similarity to the question of put-back items that are still in the
// graph with a vector made from the very text they had then (same model, same text hash), so the
// vector of today serves the past without a call to the engine. Index seeks by id; the cosine as the
// vector statements give it ((1 + cos) / 2 turned back into cos).
UNWIND $items AS x
MATCH (n:Knowledge {id: x.id})
USING INDEX n:Knowledge(id)
WHERE n.project_id = $project_id AND n.embedding IS NOT NULL AND n.embedding_model = $model
  AND n.embedding_text_hash = x.hash
RETURN x.id AS id, 2 * vector.similarity.cosine(n.embedding, $vector) - 1 AS similarity
ORDER BY id
