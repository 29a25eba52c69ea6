// Ties the loop's delta to the shapes it extracts into (a shape in use is never silently deleted).
MATCH (d:Delta {id: $delta_id})
UNWIND $shape_ids AS shape_id
MATCH (s:Shape {id: shape_id})
USING INDEX s:Shape(id)
WHERE s.builtin = true OR s.project_id = $project_id
MERGE (d)-[:USES_SHAPE]->(s)
RETURN count(s) AS linked
