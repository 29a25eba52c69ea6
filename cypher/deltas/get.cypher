// One delta of a project with its review fields.
MATCH (d:Delta {id: $delta_id, project_id: $project_id})
RETURN properties(d) AS delta
