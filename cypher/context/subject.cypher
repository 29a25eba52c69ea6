// The slice's subject: a committed entity of the project, by id or by normalized name (and label).
// Each way by its own index (the id, or the entity's (project_id, normalized_name)): the two in one WHERE
// made the planner seek every node of the project. Each branch unwinds its value (none when it is null):
// Neo4j plans by the parameters' types, and a seek on a null parameter was planned as a scan of the index.
// Both indexes are sought (USING INDEX SEEK): under a plain hint, a plan made while the statistics were stale
// scanned the whole entity index (2,007 hits for one entity, when the plan test ran first).
CALL () {
  UNWIND CASE WHEN $id IS NULL THEN [] ELSE [$id] END AS id
  MATCH (e:Entity:Knowledge {id: id})
  USING INDEX SEEK e:Knowledge(id)
  WHERE e.project_id = $project_id
  RETURN e
  UNION
  UNWIND CASE WHEN $id IS NULL AND $normalized_name IS NOT NULL THEN [$normalized_name] ELSE [] END AS name
  MATCH (e:Entity:Knowledge)
  USING INDEX SEEK e:Entity(project_id, normalized_name)
  WHERE e.project_id = $project_id AND e.normalized_name = name AND ($type IS NULL OR $type IN labels(e))
  RETURN e
}
WITH e WHERE NOT e:Pending
RETURN e.id AS id, e.name AS name
ORDER BY e.id
LIMIT 1
