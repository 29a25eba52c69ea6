// Counts a batch of changes into a delta and returns the count before it (the next sequence number).
MATCH (d:Delta {id: $delta_id})
WITH d, coalesce(d.change_count, 0) AS previous
SET d.change_count = previous + $added, d.updated_at = datetime()
RETURN previous
