// One committed memory of the project (staged memories are not visible until their delta is applied), as one row
// whether or not there is one (memory null): the row also carries the request's standing check ($standing, or
// null; answered as `standing`: src/db/graph.ts, carriesStanding), so a read by id is one statement.
// The properties are listed, not `properties(m)`: that would read the 384-number vector only to drop it
// (docs/embeddings.md, "Vectors in the graph").
OPTIONAL MATCH (m:Memory:Knowledge {id: $id})
USING INDEX m:Knowledge(id)
WHERE m.project_id = $project_id AND NOT m:Pending
// include: auth/standing_subquery
RETURN m {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
       .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to, .date_observed, .observed_at, .episode,
       .created_at, .updated_at} AS memory, standing
