// One delta of a project with its review fields.
CYPHER replan=skip
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
USING INDEX d:Delta(id)
RETURN properties(d) AS delta
