// The memories a recall answers, whole, once the rankings are fused (memories/search and memories/vector
// give only what ranking reads): committed memories of the project; the caller keeps its own order.
// The properties are listed, not `node {.*}`: that would read the 384-number vector only to drop it
// (docs/embeddings.md, "Vectors in the graph").
UNWIND $ids AS id
MATCH (node:Knowledge {id: id})
WHERE node:Memory AND node.project_id = $project_id AND NOT node:Pending
RETURN node {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
       .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to, .date_observed,
       .created_at, .updated_at} AS memory
