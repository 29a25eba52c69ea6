// One committed episode of the project (staged ones are not visible until their delta is applied), and a page of
// its committed memories in observed order (then id) after the keyset ($after_at, $after_id; null: the first).
// An episode's memories are few enough to read through its IN_EPISODE links and sort (episodes/relink does the
// same); the page reads only the properties a memory view shows.
MATCH (e:Episode:Knowledge {id: $id})
USING INDEX e:Knowledge(id)
WHERE e.project_id = $project_id AND NOT e:Pending
CALL (e) {
  MATCH (e)<-[r:IN_EPISODE]-(m:Memory)
  WHERE r.pending IS NULL AND NOT m:Pending
  WITH m, coalesce(m.observed_at, m.created_at) AS at
  WHERE $after_at IS NULL OR at > datetime($after_at) OR (at = datetime($after_at) AND m.id > $after_id)
  WITH m, at
  ORDER BY at, m.id
  LIMIT toInteger($limit)
  RETURN collect(m {.id, .name, .kind, .content, .memory_schema, .scope, .project_id, .subject_name, .predicate,
                    .object_name, .source_context, .forget_after, .forget_reason, .valid_from, .valid_to,
                    .date_observed, .observed_at, .episode, .created_at, .updated_at}) AS memories
}
RETURN e {.id, .key, .memory_count, .first_observed_at, .last_observed_at, .created_at, .updated_at} AS episode,
       memories
