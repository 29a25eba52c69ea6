// Recall's episode channel (docs/recall.md, "Episodes"), by words: the project's committed episodes whose whole text
// (episode_text: their latest memories in observed order, kept by episodes/relink) best matches $lucene (the
// question's words, required to carry the project's tenant token), at most $limit, best first.
CALL db.index.fulltext.queryNodes('episode_text', $lucene, {limit: toInteger($limit) * 2}) YIELD node, score
WITH node, score
WHERE node.project_id = $project_id AND NOT node:Pending
RETURN node.id AS id, score
ORDER BY score DESC, id
LIMIT toInteger($limit)
