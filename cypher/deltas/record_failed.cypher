// A write that could not be applied: the delta is kept as a record with its reason; nothing else stays.
MATCH (p:TenantProject {id: $project_id})
CREATE (d:Delta {
  id: $delta_id, project_id: $project_id, organization_id: p.organization_id, status: 'failed',
  origin: $origin, summary: $summary, created_by: $key_id, request_id: $request_id,
  created_at: datetime($now), updated_at: datetime($now), change_count: 0, failure_reason: $reason
})
CREATE (d)-[:IN_PROJECT]->(p)
RETURN d.id AS id
