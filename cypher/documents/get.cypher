// One committed document of the project, with whether an extraction delta awaits review.
MATCH (d:Document:Knowledge {id: $id})
USING INDEX d:Knowledge(id)
WHERE d.project_id = $project_id AND NOT d:Pending
RETURN properties(d) AS document,
       EXISTS { MATCH (:Delta {status: 'staged'})-[:USES_SOURCE]->(d) } AS pending_review
