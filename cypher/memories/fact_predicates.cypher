// The distinct predicates of the project's memories (the service derives their relationship types
// to bound how many a project's facts may introduce). Runs only when a fact names a type the
// database does not know yet.
MATCH (m:Memory:Knowledge)
WHERE m.project_id = $project_id AND m.predicate IS NOT NULL
RETURN collect(DISTINCT m.predicate) AS predicates
