// Chunks near a question by meaning (vector index chunk_embedding, cosine), filtered like the
// full-text chunk search: the project's committed chunks of committed documents, optionally of given
// documents or collections (tags, by normalized name), with a vector of the current model and a
// cosine of at least $min_similarity. One row: neighbours given, the farthest one's cosine, the hits.
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
    THEN {id: node.id, chunk: node {.*, embedding: null}, document_title: d.title, similarity: 2 * score - 1} END)
    AS hits
RETURN found, coalesce(2 * floor - 1, -1.0) AS floor, hits
