// A new delta: the reviewable unit of every write. Its changes hang off it (CREATED, HAS_CHANGE).
// $applied: a write applied at once is born applied (its changes are written committed).
MATCH (p:TenantProject {id: $project_id})
CREATE (d:Delta {
  id: $delta_id, project_id: $project_id, organization_id: p.organization_id,
  status: CASE WHEN $applied THEN 'applied' ELSE 'staged' END,
  origin: $origin, summary: $summary, created_by: $key_id, request_id: $request_id,
  created_at: datetime($now), updated_at: datetime($now), change_count: $change_count,
  applied_at: CASE WHEN $applied THEN datetime($now) END, applied_by: CASE WHEN $applied THEN $key_id END
})
CREATE (d)-[:IN_PROJECT]->(p)
RETURN d.id AS id
