// The distinct relationship types of the project's memories: the predicate_type each records, or the
// predicate of one written before types were resolved (the service derives its type), to bound how
// many a project's facts may introduce. Runs only when a fact names a type the database does not know yet.
// Read through the (project_id, predicate) index: the project's facts only, not every memory of the project.
MATCH (m:Memory)
USING INDEX SEEK m:Memory(project_id, predicate)
WHERE m.project_id = $project_id AND m.predicate IS NOT NULL AND m:Knowledge
RETURN collect(DISTINCT coalesce(m.predicate_type, m.predicate)) AS predicates
