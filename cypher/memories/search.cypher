// Ranked recall: Lucene full-text over content and name, limited to the project's tenant token in
// the query itself; then committed and still-recallable memories valid at $valid_at (as_of, else now; docs/facts.md) only.
// The memory's properties are listed, not `node {.*}`: that would read the 384-number vector of every
// candidate only to drop it (docs/embeddings.md, "Vectors in the graph").
CALL db.index.fulltext.queryNodes('memory_text', $lucene, {limit: toInteger($candidates)}) YIELD node, score
WHERE node.project_id = $project_id AND NOT node:Pending
  AND (node.forget_after IS NULL OR node.forget_after > datetime($now))
  AND (node.valid_from IS NULL OR node.valid_from <= datetime($valid_at))
  AND (node.valid_to IS NULL OR node.valid_to > datetime($valid_at))
  AND ($kinds IS NULL OR node.kind IN $kinds)
RETURN node {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
       .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to, .date_observed,
       .created_at, .updated_at} AS memory, score
ORDER BY score DESC, node.id
LIMIT toInteger($limit)
