// Counts of the project's nodes per label and relationships per type (committed only unless
// pending work is asked for). Internal labels are left out; :Entity counts every entity.
// Every part seeks the project's index (USING INDEX SEEK): unhinted, the relationships were counted by a
// scan of every relationship of the database, whatever project they belong to (the plan Neo4j chose where
// relationships are few beside nodes). The far end is the relationship's, tested after the expansion.
CALL () {
  MATCH (n:Knowledge {project_id: $project_id})
  USING INDEX SEEK n:Knowledge(project_id)
  WHERE $include_pending OR NOT n:Pending
  RETURN count(n) AS node_count
}
CALL () {
  MATCH (n:Knowledge {project_id: $project_id})
  USING INDEX SEEK n:Knowledge(project_id)
  WHERE $include_pending OR NOT n:Pending
  UNWIND labels(n) AS label
  WITH label WHERE NOT label IN ['Knowledge', 'Pending']
  WITH label, count(*) AS count ORDER BY count DESC, label
  RETURN collect({label: label, count: count}) AS labels
}
CALL () {
  MATCH (a:Knowledge {project_id: $project_id})
  USING INDEX SEEK a:Knowledge(project_id)
  MATCH (a)-[r]->()
  WITH r, endNode(r) AS b
  WHERE b:Knowledge AND b.project_id = $project_id AND ($include_pending OR r.pending IS NULL)
  WITH type(r) AS type, count(*) AS count ORDER BY count DESC, type
  RETURN collect({type: type, count: count}) AS relationship_types
}
RETURN node_count, labels, relationship_types,
       reduce(total = 0, x IN relationship_types | total + x.count) AS relationship_count
