// A loop of the project.
MATCH (l:Loop {id: $id})
WHERE l.project_id = $project_id
RETURN properties(l) AS loop
