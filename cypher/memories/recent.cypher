// Recall without a query: the most recent committed, recallable memories valid at $valid_at (as_of, else now; docs/facts.md) of the project.
// The memory's properties are listed, not `node {.*}`: that would read the 384-number vector of every
// candidate only to drop it (docs/embeddings.md, "Vectors in the graph").
// Read newest first in the order of the (project_id, created_at) index (hinted; ORDER BY names both of its
// properties), so it stops at the limit instead of reading and sorting every memory of the project; the
// tests are CASEs, since an OR may be planned as a union that loses the index's order.
MATCH (node:Memory)
USING INDEX SEEK node:Memory(project_id, created_at)
WHERE node.project_id = $project_id AND node.created_at IS NOT NULL AND NOT node:Pending
  AND CASE WHEN node.forget_after IS NULL THEN true ELSE node.forget_after > datetime($now) END
  AND CASE WHEN node.valid_from IS NULL THEN true ELSE node.valid_from <= datetime($valid_at) END
  AND CASE WHEN node.valid_to IS NULL THEN true ELSE node.valid_to > datetime($valid_at) END
  AND ($kinds IS NULL OR node.kind IN $kinds)
RETURN node {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
       .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to, .date_observed, .observed_at, .episode,
       .created_at, .updated_at} AS memory, 0.0 AS score
ORDER BY node.project_id DESC, node.created_at DESC, node.id
LIMIT toInteger($limit)
