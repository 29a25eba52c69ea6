// Records how a loop ended and why it stopped (once: a retried finish keeps the first outcome).
MATCH (l:Loop {id: $id})
WITH l, l.finished_at IS NULL AS first
SET l.status = CASE WHEN l.finished_at IS NULL THEN $status ELSE l.status END,
    l.stop_reason = CASE WHEN l.finished_at IS NULL THEN $stop_reason ELSE l.stop_reason END,
    l.iterations = coalesce(l.iterations, $iterations), l.quality = coalesce(l.quality, $quality),
    l.error = coalesce(l.error, $error), l.credits_spent = CASE WHEN l.finished_at IS NULL THEN $spent ELSE l.credits_spent END,
    l.finished_at = coalesce(l.finished_at, datetime()), l.updated_at = datetime()
RETURN l.credits_spent AS spent, first, l.status AS status
