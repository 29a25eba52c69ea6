// Terms (docs/recall.md, "Hops"): what memories mention, one node per project and key, made by the mention worker
// (derived from the memories' text like an index, so not :Knowledge and not in any delta); and the worker's queue.
CREATE CONSTRAINT term_key IF NOT EXISTS FOR (t:Term) REQUIRE (t.project_id, t.key) IS UNIQUE;
CREATE INDEX memory_mentions_queue IF NOT EXISTS FOR (m:Memory) ON (m.mentions_queued_at);
