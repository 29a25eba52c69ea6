// Context candidates, document plane, without a query: the most recent committed chunks of the
// project's committed documents, with the same filters as the ranked ones.
MATCH (node:Chunk)
WHERE node.project_id = $project_id AND node.created_at IS NOT NULL AND NOT node:Pending
  AND ($document_ids IS NULL OR node.document_id IN $document_ids)
  AND ($as_of IS NULL OR node.created_at <= datetime($as_of))
  AND ($from IS NULL OR node.created_at >= datetime($from)) AND ($to IS NULL OR node.created_at <= datetime($to))
MATCH (d:Document)-[h:HAS_CHUNK]->(node)
WHERE h.pending IS NULL AND NOT d:Pending
  AND ($tags IS NULL OR EXISTS {
    MATCH (d)-[c:IN_COLLECTION]->(col:Collection)
    WHERE c.pending IS NULL AND col.normalized_name IN $tags
  })
RETURN node.id AS id, d.title AS title, node.index AS chunk_index, node.text AS text,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, 0.0 AS score
ORDER BY node.created_at DESC, id
LIMIT toInteger($limit)
