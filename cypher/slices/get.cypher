// One slice of the project by id, committed or staged (a staged one answers 404 to reads and 409
// to compiles, naming its delta), with its version links (committed ones only).
MATCH (s:Slice:Knowledge {id: $id})
USING INDEX s:Knowledge(id)
WHERE s.project_id = $project_id
CALL (s) {
  OPTIONAL MATCH (newer:Slice)-[x:SUPERSEDES]->(s)
  WHERE x.pending IS NULL AND NOT newer:Pending
  RETURN newer.id AS superseded_by LIMIT 1
}
CALL (s) {
  OPTIONAL MATCH (s)-[x:SUPERSEDES]->(older:Slice)
  RETURN older.id AS supersedes LIMIT 1
}
RETURN properties(s) AS slice, s:Pending AS pending, superseded_by, supersedes
