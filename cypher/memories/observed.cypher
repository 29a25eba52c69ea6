// Recall's time channel (docs/recall.md, "Time"): the project's committed, still-recallable memories valid at
// $valid_at that were observed within one of $windows ([{from, to}], ISO date-times: a question's time expressions,
// each widened by the week after it in which what happened is told), read through the (project_id, observed_at)
// index when they are at most $scan (recall ranks them with the other channels' candidates observed in the
// windows: src/memories/channels.ts timeRanking; a larger window by those candidates alone); each with its cosine
// to the question by its own vector and by its context vector (null without $vector, or for a vector of another
// model), the $limit nearest first (without a question vector: the latest observed first). A memory written before episodes has no observed_at: its created_at stands
// for it.
CALL () {
  UNWIND $windows AS w
  MATCH (node:Memory)
  USING INDEX SEEK node:Memory(project_id, observed_at)
  WHERE node.project_id = $project_id AND node.observed_at >= datetime(w.from) AND node.observed_at < datetime(w.to)
  RETURN node
  UNION
  UNWIND $windows AS w
  MATCH (node:Memory)
  USING INDEX SEEK node:Memory(project_id, created_at)
  WHERE node.project_id = $project_id AND node.created_at >= datetime(w.from) AND node.created_at < datetime(w.to)
    AND node.observed_at IS NULL
  RETURN node
}
WITH node
WHERE NOT node:Pending
  AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
  AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
  AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
  AND ($kinds IS NULL OR node.kind IN $kinds)
  AND ($episode IS NULL OR node.episode = $episode)
WITH node
LIMIT toInteger($scan) + 1
// A window holding more than $scan memories is not read here: any $scan of them would be an arbitrary part of it;
// recall ranks it by what words, meaning and context found in it.
WITH collect(node) AS nodes
UNWIND CASE WHEN size(nodes) <= $scan THEN nodes ELSE [] END AS node
WITH node,
     CASE WHEN $vector IS NULL OR node.embedding_model <> $model OR node.embedding IS NULL THEN null
          ELSE vector.similarity.cosine(node.embedding, $vector) * 2 - 1 END AS similarity,
     CASE WHEN $vector IS NULL OR node.embedding_model <> $model OR node.context_embedding IS NULL THEN null
          ELSE vector.similarity.cosine(node.context_embedding, $vector) * 2 - 1 END AS context_similarity
WITH node, similarity, context_similarity,
     CASE WHEN context_similarity > coalesce(similarity, -2) THEN context_similarity ELSE similarity END AS best
ORDER BY best DESC, coalesce(node.observed_at, node.created_at) DESC, node.id
LIMIT toInteger($limit)
RETURN collect({id: node.id, similarity: similarity, context_similarity: context_similarity,
                memory: node {.id, .name, .content},
                links:
// include: memories/candidate_links
               }) AS hits
