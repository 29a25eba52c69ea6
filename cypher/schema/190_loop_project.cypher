// A project's loops, newest first (GET /v1/loops): found by their project, not by a scan of every
// project's loops.
CREATE INDEX loop_project_created IF NOT EXISTS FOR (l:Loop) ON (l.project_id, l.created_at);
