// The mention worker's queue (docs/recall.md, "Hops"): the oldest committed memories given mentions_queued_at by
// the transaction that applied or reverted their delta, with what their terms are read from.
MATCH (m:Memory)
WHERE m.mentions_queued_at IS NOT NULL AND NOT m:Pending
WITH m
ORDER BY m.mentions_queued_at
LIMIT toInteger($limit)
RETURN elementId(m) AS element_id, m.mentions_queued_at AS queued_at, m.mentions_hash AS hash,
       m.content AS content, m.subject_name AS subject, m.object_name AS object
