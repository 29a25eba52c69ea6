// A loop of the project.
MATCH (l:Loop {id: $id})
USING INDEX l:Loop(id)
WHERE l.project_id = $project_id
RETURN properties(l) AS loop
