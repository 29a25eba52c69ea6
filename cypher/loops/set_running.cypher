MATCH (l:Loop {id: $id})
SET l.status = CASE WHEN l.status = 'queued' THEN 'running' ELSE l.status END,
    l.started_at = coalesce(l.started_at, datetime()), l.updated_at = datetime()
RETURN l.id AS id
