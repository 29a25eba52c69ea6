// hydrate: documents whose committed chunks match the goal (best chunk score per document).
CALL db.index.fulltext.queryNodes('chunk_text', $lucene, {limit: toInteger($limit) * 4}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
MATCH (doc:Document)-[r:HAS_CHUNK]->(node)
WHERE NOT doc:Pending AND r.pending IS NULL
WITH doc, max(score) AS score, head(collect(node.text)) AS text
RETURN doc.id AS id, 'document' AS plane, score, coalesce(doc.title, '') + ' ' + text AS text
ORDER BY score DESC, id
LIMIT toInteger($limit)
