// The memories a recall answers, in one statement once the rankings are fused: each read whole (committed
// memories of the project; the caller keeps its own order), unless the caller already holds it ($known:
// what known_at puts back, or what memories/recent read), and the committed relationships among and around
// them all (subject, object and any other), each once. One statement instead of two saves a session and a
// statement per search (issue 27). The properties are listed, not `m {.*}`: that would read the 384-number
// vector only to drop it (docs/embeddings.md, "Vectors in the graph").
UNWIND $ids AS id
MATCH (m:Knowledge {id: id})
USING INDEX m:Knowledge(id)
WITH collect(m) AS found
// include: memories/edges_of_found
RETURN [m IN found WHERE m:Memory AND m.project_id = $project_id AND NOT m:Pending AND NOT m.id IN $known |
        m {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
           .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to, .date_observed, .observed_at, .episode,
           .created_at, .updated_at}] AS memories,
       edges
