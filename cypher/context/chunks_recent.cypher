// Context candidates, document plane, without a query: the most recent committed chunks of the
// project's committed documents, with the same filters as the ranked ones.
// Read newest first in the order of the (project_id, created_at) index (hinted; ORDER BY names both of its
// properties), so it stops at the limit instead of reading and sorting every chunk of the project; the
// tests are CASEs, since an OR may be planned as a union that loses the index's order.
MATCH (node:Chunk)
USING INDEX SEEK node:Chunk(project_id, created_at)
WHERE node.project_id = $project_id AND node.created_at IS NOT NULL AND NOT node:Pending
  AND ($document_ids IS NULL OR node.document_id IN $document_ids)
  AND CASE WHEN $as_of IS NULL THEN true ELSE node.created_at <= datetime($as_of) END
  AND CASE WHEN $from IS NULL THEN true ELSE node.created_at >= datetime($from) END
  AND CASE WHEN $to IS NULL THEN true ELSE node.created_at <= datetime($to) END
MATCH (d:Document)-[h:HAS_CHUNK]->(node)
WHERE h.pending IS NULL AND NOT d:Pending
  AND ($tags IS NULL OR EXISTS {
    MATCH (d)-[c:IN_COLLECTION]->(col:Collection)
    WHERE c.pending IS NULL AND col.normalized_name IN $tags
  })
RETURN node.id AS id, d.title AS title, node.index AS chunk_index, node.text AS text,
       CASE WHEN node.created_at IS :: ZONED DATETIME THEN node.created_at.epochMillis END AS created_ms, 0.0 AS score
ORDER BY node.project_id DESC, node.created_at DESC, id
LIMIT toInteger($limit)
