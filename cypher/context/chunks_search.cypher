// Context candidates, document plane, with a query: ranked chunks of committed documents of the
// project (optionally of given documents or collections), created by $as_of, inside the window.
CALL db.index.fulltext.queryNodes('chunk_text', $lucene, {limit: toInteger($candidates)}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
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
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, score
ORDER BY score DESC, id
LIMIT toInteger($limit)
