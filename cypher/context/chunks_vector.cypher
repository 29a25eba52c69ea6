// Context candidates, document plane, by meaning: the question's neighbours in chunk_embedding that
// are committed chunks of committed documents of the project (optionally of given documents or
// collections), with a vector of the current model, at least $min_similarity (cosine), created by
// $as_of and inside the window. One row: neighbours given, the farthest one's cosine, the hits.
// The $k nearest: compared exactly in a project of at most $exact_up_to chunks, else the index's.
// include: search/held_chunks
WITH vector_index, held, $vector AS question
// include: search/nearest
OPTIONAL MATCH (d:Document)-[h:HAS_CHUNK]->(node)
WHERE h.pending IS NULL AND NOT d:Pending
  AND ($tags IS NULL OR EXISTS {
    MATCH (d)-[c:IN_COLLECTION]->(col:Collection)
    WHERE c.pending IS NULL AND col.normalized_name IN $tags
  })
WITH count(*) AS found, min(score) AS floor,
  collect(CASE WHEN d IS NOT NULL AND node.project_id = $project_id AND NOT node:Pending
      AND node.embedding_model = $model AND 2 * score - 1 >= $min_similarity
      AND ($document_ids IS NULL OR node.document_id IN $document_ids)
      AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
      AND ($from IS NULL OR node.created_at >= datetime($from)) AND ($to IS NULL OR node.created_at <= datetime($to))
    THEN {id: node.id, title: d.title, chunk_index: node.index, text: node.text,
          created_ms: CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END,
          similarity: 2 * score - 1} END) AS hits
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, hits
