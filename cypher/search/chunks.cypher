// Ranked chunks (document plane): Lucene full-text over chunk text, limited to the project's tenant
// token in the query itself; committed chunks of committed documents only, optionally of given
// documents or of documents in given collections (tags, by normalized name).
CALL db.index.fulltext.queryNodes('chunk_text', $lucene, {limit: toInteger($candidates)}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
  AND ($document_ids IS NULL OR node.document_id IN $document_ids)
MATCH (d:Document)-[h:HAS_CHUNK]->(node)
WHERE h.pending IS NULL AND NOT d:Pending
  AND ($tags IS NULL OR EXISTS {
    MATCH (d)-[c:IN_COLLECTION]->(col:Collection)
    WHERE c.pending IS NULL AND col.normalized_name IN $tags
  })
RETURN node {.*, embedding: null} AS chunk, d.title AS document_title, score
ORDER BY score DESC, node.id
LIMIT toInteger($limit)
