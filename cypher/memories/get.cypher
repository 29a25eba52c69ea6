// One committed memory of the project (staged memories are not visible until their delta is applied).
// The properties are listed, not `properties(m)`: that would read the 384-number vector only to drop it
// (docs/embeddings.md, "Vectors in the graph").
MATCH (m:Memory:Knowledge {id: $id})
USING INDEX m:Knowledge(id)
WHERE m.project_id = $project_id AND NOT m:Pending
RETURN m {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
       .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to, .date_observed,
       .created_at, .updated_at} AS memory
