// The mention worker's queue (docs/recall.md, "Hops"): how many committed memories wait for their terms and when
// the oldest joined it (through the memory_mentions_queue index).
MATCH (n:Memory) WHERE n.mentions_queued_at IS NOT NULL
RETURN count(n) AS count, min(n.mentions_queued_at) AS oldest
