// A page of the project's committed episodes, the most recently observed first (then id), after the keyset
// ($after_at, $after_id; null: from the start), read in the order of the (project_id, last_observed_at) index.
MATCH (e:Episode)
USING INDEX SEEK e:Episode(project_id, last_observed_at)
WHERE e.project_id = $project_id AND e.last_observed_at IS NOT NULL AND NOT e:Pending
  AND ($after_at IS NULL OR e.last_observed_at < datetime($after_at)
       OR (e.last_observed_at = datetime($after_at) AND e.id > $after_id))
RETURN e {.id, .key, .memory_count, .first_observed_at, .last_observed_at, .created_at, .updated_at} AS episode
ORDER BY e.project_id DESC, e.last_observed_at DESC, e.id
LIMIT toInteger($limit)
