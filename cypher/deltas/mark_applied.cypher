// Marks a delta applied; with an override, the reason and the findings it overrode (JSON text).
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id})
USING INDEX d:Delta(id)
SET d.status = 'applied', d.applied_at = datetime($now), d.applied_by = $actor, d.updated_at = datetime($now),
    d.override_reason = $override_reason, d.override_findings = $override_findings
RETURN d.id AS id
