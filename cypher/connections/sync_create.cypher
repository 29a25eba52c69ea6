// A sync run: queued, with the delta it stages into, the cursor it starts from and where it resumes.
CREATE (y:Sync {
  id: $id, connection_id: $connection_id, project_id: $project_id, delta_id: $delta_id, status: 'queued',
  trigger: $trigger, full_refresh: $full_refresh, since: $since, cursor: $since, next_page: $next_page, exhausted: false,
  pages: $pages, seen: $seen, created: $created, updated: $updated, unchanged: $unchanged, resumed_from: $resumed_from,
  workflow_id: $workflow_id, run_id: $run_id, key_id: $key_id, created_at: datetime($now)
})
RETURN y.id AS id
