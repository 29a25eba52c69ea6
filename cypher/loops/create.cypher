// The loop's record: what was asked, tied to the staged delta its output goes into. Operational,
// not knowledge (no :Knowledge label); its run lives in Temporal as workflow loop-<id>.
MATCH (d:Delta {id: $delta_id})
CREATE (l:Loop {
  id: $id, project_id: $project_id, organization_id: $organization_id, kind: $kind, goal: $goal, subject: $subject,
  effort: $effort, max_iterations: $max_iterations, quality_threshold: $quality_threshold, extractor: $extractor,
  workflow_id: $workflow_id, workflow_type: $workflow_type, delta_id: $delta_id, status: 'queued',
  credits_reserved: $credits_reserved, credits_spent: 0, created_by: $key_id, created_at: datetime(), updated_at: datetime()
})
CREATE (l)-[:STAGES_INTO]->(d)
RETURN l.id AS id
